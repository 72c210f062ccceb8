# Writes OUTPUT: the files in INPUTS (a ;-list), one after the other, as a C++
# raw string literal that the emitter copies into every engine.
set(text "")
foreach(input IN LISTS INPUTS)
  file(READ "${input}" content)
  string(APPEND text "${content}\n")
endforeach()
file(WRITE "${OUTPUT}" "R\"prec_runtime(${text})prec_runtime\"\n")
