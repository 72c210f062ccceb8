// The file PrecMlirHeaders compiles, so that its precompiled header is built
// (cmake/PrecompiledHeaders.cmake); it holds nothing of its own.
