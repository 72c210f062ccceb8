//===- NpyStream.cpp - arrays read front to back --------------------------===//

#include "formats/NpyStream.h"

#include "support/Errors.h"

#include <zlib.h>

#include <cstring>

namespace prec {

NpyStream::~NpyStream() {
  if (inflater)
    inflateEnd(inflater.get());
}

llvm::Error NpyStream::readRaw(uint8_t *out, size_t size) {
  if (!inflater) {
    if (position + size > stored.size())
      return makeError("the array ends early");
    std::memcpy(out, stored.data() + position, size);
    position += size;
    return llvm::Error::success();
  }
  inflater->next_out = out;
  inflater->avail_out = static_cast<uInt>(size);
  while (inflater->avail_out > 0) {
    int status = inflate(inflater.get(), Z_NO_FLUSH);
    if (status == Z_STREAM_END && inflater->avail_out > 0)
      return makeError("the deflated array ends early");
    if (status != Z_OK && status != Z_STREAM_END)
      return makeError("corrupt deflated member");
  }
  return llvm::Error::success();
}

llvm::Error NpyStream::read(uint8_t *out, size_t size) {
  if (size > dataLeft)
    return makeError("reading past the end of the array");
  dataLeft -= size;
  return readRaw(out, size);
}

llvm::Expected<std::vector<std::pair<std::string, std::unique_ptr<NpyStream>>>>
NpyStream::open(llvm::StringRef path, llvm::ArrayRef<std::string> bf16Names) {
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> buffer =
      llvm::MemoryBuffer::getFile(path, /*IsText=*/false,
                                  /*RequiresNullTerminator=*/false);
  if (!buffer)
    return makeError("cannot read '" + path +
                     "': " + buffer.getError().message());
  std::shared_ptr<llvm::MemoryBuffer> file = std::move(*buffer);
  std::vector<NpzMember> members;
  if (path.ends_with(".npz")) {
    llvm::Expected<std::vector<NpzMember>> listed =
        listNpzMembers(file->getBuffer());
    if (!listed)
      return makeError("'" + path + "' is not a valid .npz: " +
                       llvm::toString(listed.takeError()));
    members = std::move(*listed);
  } else {
    members.push_back({"", 0, file->getBuffer(), file->getBufferSize()});
  }

  std::vector<std::pair<std::string, std::unique_ptr<NpyStream>>> streams;
  for (NpzMember &member : members) {
    std::string where =
        "'" + path.str() +
        (member.name.empty() ? "'" : "' member '" + member.name + "'");
    std::unique_ptr<NpyStream> stream(new NpyStream());
    stream->file = file;
    stream->stored = member.data;
    if (member.method == 8) {
      stream->inflater = std::make_unique<z_stream_s>();
      std::memset(stream->inflater.get(), 0, sizeof(z_stream_s));
      if (inflateInit2(stream->inflater.get(), -MAX_WBITS) != Z_OK)
        return makeError(where + ": cannot start inflating");
      stream->inflater->next_in =
          reinterpret_cast<Bytef *>(const_cast<char *>(member.data.data()));
      stream->inflater->avail_in = static_cast<uInt>(member.data.size());
    }
    // The header: its fixed part says how long the rest is.
    std::string header(12, '\0');
    size_t fixed = std::min<size_t>(12, member.size);
    if (llvm::Error error =
            stream->readRaw(reinterpret_cast<uint8_t *>(header.data()), fixed))
      return makeError(where + ": " + llvm::toString(std::move(error)));
    header.resize(fixed);
    llvm::Expected<size_t> length = getNpyHeaderSize(header);
    if (!length)
      return makeError(where + ": " + llvm::toString(length.takeError()));
    if (*length > member.size)
      return makeError(where + ": truncated .npy header");
    header.resize(std::max(*length, fixed));
    if (llvm::Error error =
            stream->readRaw(reinterpret_cast<uint8_t *>(header.data()) + fixed,
                            header.size() - fixed))
      return makeError(where + ": " + llvm::toString(std::move(error)));
    llvm::Expected<NpyHeader> parsed =
        parseNpyHeader(header, llvm::is_contained(bf16Names, member.name));
    if (!parsed)
      return makeError(where + ": " + llvm::toString(parsed.takeError()));
    if (llvm::Error error =
            checkNpyPayload(*parsed, member.size - parsed->dataOffset))
      return makeError(where + ": " + llvm::toString(std::move(error)));
    stream->header = std::move(*parsed);
    stream->dataLeft = stream->header.dataSize;
    streams.emplace_back(member.name, std::move(stream));
  }
  return streams;
}

} // namespace prec
