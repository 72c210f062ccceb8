//===- Npy.cpp - numpy .npy and .npz files --------------------------------===//

#include "formats/Npy.h"

#include "support/Errors.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include <zlib.h>

#include <cstring>

namespace prec {
namespace {

constexpr llvm::StringLiteral kNpyMagic("\x93NUMPY");

/// The value of `key` in numpy's header dict, e.g. `'<f4'` or `(2, 3)`.
llvm::Expected<llvm::StringRef> findHeaderValue(llvm::StringRef header,
                                                llvm::StringRef key) {
  std::string quoted = ("'" + key + "'").str();
  size_t at = header.find(quoted);
  if (at == llvm::StringRef::npos)
    return makeError("header has no '" + key + "'");
  llvm::StringRef rest = header.drop_front(at + quoted.size()).ltrim();
  if (!rest.consume_front(":"))
    return makeError("header entry '" + key + "' has no value");
  rest = rest.ltrim();
  if (rest.starts_with("'")) {
    size_t end = rest.find('\'', 1);
    if (end == llvm::StringRef::npos)
      return makeError("header entry '" + key + "' is not terminated");
    return rest.slice(1, end);
  }
  if (rest.starts_with("(")) {
    size_t end = rest.find(')');
    if (end == llvm::StringRef::npos)
      return makeError("header entry '" + key + "' is not terminated");
    return rest.slice(1, end);
  }
  return rest.take_until([](char c) { return c == ',' || c == '}'; }).trim();
}

} // namespace

llvm::StringRef getNumpyDescr(ElementKind kind) {
  switch (kind) {
  case ElementKind::F32:
    return "<f4";
  case ElementKind::F64:
    return "<f8";
  case ElementKind::F16:
    return "<f2";
  case ElementKind::BF16:
    return "<u2";
  case ElementKind::I8:
    return "|i1";
  case ElementKind::U8:
    return "|u1";
  case ElementKind::I16:
    return "<i2";
  case ElementKind::I32:
    return "<i4";
  case ElementKind::I64:
    return "<i8";
  case ElementKind::Bool:
    return "|b1";
  }
  llvm_unreachable("unknown element kind");
}

llvm::Expected<ElementKind> parseNumpyDescr(llvm::StringRef descr, bool bf16) {
  // One-byte types carry '|' (no byte order); numpy also accepts '<'.
  if (descr.size() == 3 &&
      (descr[0] == '<' || descr[0] == '|' || descr[0] == '='))
    descr = descr.drop_front();
  else if (descr.starts_with(">"))
    return makeError("big-endian data ('" + descr +
                     "') is not supported; save it little-endian");
  if (bf16 && (descr == "u2" || descr == "V2"))
    return ElementKind::BF16;
  std::optional<ElementKind> kind =
      llvm::StringSwitch<std::optional<ElementKind>>(descr)
          .Case("f4", ElementKind::F32)
          .Case("f8", ElementKind::F64)
          .Case("f2", ElementKind::F16)
          .Case("i1", ElementKind::I8)
          .Case("u1", ElementKind::U8)
          .Case("i2", ElementKind::I16)
          .Case("i4", ElementKind::I32)
          .Case("i8", ElementKind::I64)
          .Case("b1", ElementKind::Bool)
          .Default(std::nullopt);
  if (!kind)
    return makeError("unsupported dtype '" + descr +
                     "'; supported: f4, f8, f2, bf16 as u2, i1, u1, i2, i4, "
                     "i8, b1");
  return *kind;
}

llvm::Expected<size_t> getNpyHeaderSize(llvm::StringRef prefix) {
  if (!prefix.starts_with(kNpyMagic))
    return makeError("not a .npy file (bad magic)");
  if (prefix.size() < 10)
    return makeError("truncated .npy header");
  uint8_t major = prefix[6];
  if (major == 1)
    return 10 + (uint8_t(prefix[8]) | (uint8_t(prefix[9]) << 8));
  if (major != 2 && major != 3)
    return makeError("unsupported .npy version " + llvm::Twine(int(major)));
  if (prefix.size() < 12)
    return makeError("truncated .npy header");
  return 12 + (uint64_t(uint8_t(prefix[8])) |
               (uint64_t(uint8_t(prefix[9])) << 8) |
               (uint64_t(uint8_t(prefix[10])) << 16) |
               (uint64_t(uint8_t(prefix[11])) << 24));
}

llvm::Error checkNpyPayload(const NpyHeader &header, uint64_t bytes) {
  if (bytes == header.dataSize)
    return llvm::Error::success();
  return makeError("data holds " + llvm::Twine(bytes) + " bytes but shape " +
                   formatShape(header.shape) + " of " +
                   getElementKindName(header.kind) + " needs " +
                   llvm::Twine(header.dataSize));
}

llvm::Expected<NpyHeader> parseNpyHeader(llvm::StringRef bytes, bool bf16) {
  llvm::Expected<size_t> headerSize = getNpyHeaderSize(bytes);
  if (!headerSize)
    return headerSize.takeError();
  size_t headerStart = bytes[6] == 1 ? 10 : 12;
  if (bytes.size() < *headerSize)
    return makeError("truncated .npy header");
  llvm::StringRef header = bytes.slice(headerStart, *headerSize);

  llvm::Expected<llvm::StringRef> descr = findHeaderValue(header, "descr");
  if (!descr)
    return descr.takeError();
  llvm::Expected<ElementKind> kind = parseNumpyDescr(*descr, bf16);
  if (!kind)
    return kind.takeError();
  llvm::Expected<llvm::StringRef> fortran =
      findHeaderValue(header, "fortran_order");
  if (!fortran)
    return fortran.takeError();
  if (*fortran != "False")
    return makeError("Fortran-ordered arrays are not supported; save with "
                     "np.ascontiguousarray");
  llvm::Expected<llvm::StringRef> shapeText = findHeaderValue(header, "shape");
  if (!shapeText)
    return shapeText.takeError();

  NpyHeader result;
  result.kind = *kind;
  llvm::SmallVector<llvm::StringRef> dims;
  shapeText->split(dims, ',', -1, /*KeepEmpty=*/false);
  for (llvm::StringRef dim : dims) {
    dim = dim.trim();
    if (dim.empty())
      continue;
    int64_t value = 0;
    if (dim.getAsInteger(10, value) || value < 0)
      return makeError("bad dimension '" + dim + "' in shape (" + *shapeText +
                       ")");
    result.shape.push_back(value);
  }
  // Guard the size computation against absurd shapes.
  uint64_t count = 1;
  for (int64_t dim : result.shape) {
    if (dim != 0 && count > (uint64_t(1) << 48) / uint64_t(dim))
      return makeError("shape (" + *shapeText + ") is too large");
    count *= dim;
  }
  result.dataOffset = *headerSize;
  result.dataSize = count * getElementSize(*kind);
  return result;
}

llvm::Expected<HostTensor> parseNpy(llvm::StringRef bytes, bool bf16) {
  llvm::Expected<NpyHeader> header = parseNpyHeader(bytes, bf16);
  if (!header)
    return header.takeError();
  llvm::StringRef payload = bytes.drop_front(header->dataOffset);
  if (llvm::Error error = checkNpyPayload(*header, payload.size()))
    return std::move(error);
  HostTensor tensor;
  tensor.kind = header->kind;
  tensor.shape = header->shape;
  tensor.data.assign(payload.begin(), payload.end());
  return tensor;
}

std::string serializeNpy(const HostTensor &tensor) {
  std::string header;
  llvm::raw_string_ostream os(header);
  os << "{'descr': '" << getNumpyDescr(tensor.kind)
     << "', 'fortran_order': False, 'shape': (";
  for (int64_t dim : tensor.shape)
    os << dim << (tensor.shape.size() == 1 ? "," : ", ");
  if (tensor.shape.size() > 1)
    header.resize(header.size() - 2);
  os << "), }";
  // Pad with spaces and end with a newline so that the data is 64-aligned.
  size_t total = 10 + header.size() + 1;
  header.append((64 - total % 64) % 64, ' ');
  header.push_back('\n');

  std::string bytes(kNpyMagic);
  bytes.push_back(1);
  bytes.push_back(0);
  bytes.push_back(static_cast<char>(header.size() & 0xff));
  bytes.push_back(static_cast<char>(header.size() >> 8));
  bytes += header;
  bytes.append(tensor.data.begin(), tensor.data.end());
  return bytes;
}

llvm::Expected<HostTensor> readNpy(llvm::StringRef path, bool bf16) {
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> buffer =
      llvm::MemoryBuffer::getFile(path, /*IsText=*/false,
                                  /*RequiresNullTerminator=*/false);
  if (!buffer)
    return makeError("cannot read '" + path +
                     "': " + buffer.getError().message());
  llvm::Expected<HostTensor> tensor = parseNpy((*buffer)->getBuffer(), bf16);
  if (!tensor)
    return makeError("'" + path + "': " + llvm::toString(tensor.takeError()));
  return tensor;
}

namespace {

uint16_t read16(llvm::StringRef bytes, size_t at) {
  return uint8_t(bytes[at]) | (uint16_t(uint8_t(bytes[at + 1])) << 8);
}

uint32_t read32(llvm::StringRef bytes, size_t at) {
  return read16(bytes, at) | (uint32_t(read16(bytes, at + 2)) << 16);
}

void write16(std::string &out, uint16_t value) {
  out.push_back(static_cast<char>(value & 0xff));
  out.push_back(static_cast<char>(value >> 8));
}

void write32(std::string &out, uint32_t value) {
  write16(out, value & 0xffff);
  write16(out, value >> 16);
}

/// Inflates a raw deflate stream of known output size.
llvm::Expected<std::string> inflateRaw(llvm::StringRef compressed,
                                       size_t size) {
  std::string out(size, '\0');
  z_stream stream{};
  if (inflateInit2(&stream, -MAX_WBITS) != Z_OK)
    return makeError("cannot start inflating");
  stream.next_in =
      reinterpret_cast<Bytef *>(const_cast<char *>(compressed.data()));
  stream.avail_in = static_cast<uInt>(compressed.size());
  stream.next_out = reinterpret_cast<Bytef *>(out.data());
  stream.avail_out = static_cast<uInt>(out.size());
  int status = inflate(&stream, Z_FINISH);
  inflateEnd(&stream);
  if (status != Z_STREAM_END || stream.total_out != size)
    return makeError("corrupt deflated member");
  return out;
}

constexpr uint32_t kLocalHeader = 0x04034b50;
constexpr uint32_t kCentralHeader = 0x02014b50;
constexpr uint32_t kEndOfCentralDirectory = 0x06054b50;
/// Deflate's densest encoding: 258 bytes from 2 bits, plus block headers.
constexpr uint64_t kMaxDeflateRatio = 1032;

} // namespace

llvm::Expected<std::vector<NpzMember>> listNpzMembers(llvm::StringRef bytes) {
  // The end-of-central-directory record sits in the last 64 KiB + 22 bytes.
  if (bytes.size() < 22)
    return makeError("too short for a zip archive");
  size_t end = llvm::StringRef::npos;
  size_t lowest = bytes.size() > 65557 ? bytes.size() - 65557 : 0;
  for (size_t at = bytes.size() - 22 + 1; at-- > lowest;) {
    if (read32(bytes, at) == kEndOfCentralDirectory) {
      end = at;
      break;
    }
  }
  if (end == llvm::StringRef::npos)
    return makeError("no zip end-of-central-directory record");
  uint16_t count = read16(bytes, end + 10);
  uint32_t directory = read32(bytes, end + 16);
  if (directory == 0xffffffff || count == 0xffff)
    return makeError("zip64 archives are not supported");

  std::vector<NpzMember> members;
  size_t at = directory;
  for (uint16_t i = 0; i < count; ++i) {
    if (at + 46 > bytes.size() || read32(bytes, at) != kCentralHeader)
      return makeError("bad central directory entry");
    NpzMember member;
    member.method = read16(bytes, at + 10);
    uint32_t compressedSize = read32(bytes, at + 20);
    member.size = read32(bytes, at + 24);
    uint16_t nameLength = read16(bytes, at + 28);
    uint16_t extraLength = read16(bytes, at + 30);
    uint16_t commentLength = read16(bytes, at + 32);
    uint32_t localOffset = read32(bytes, at + 42);
    if (at + 46 + nameLength > bytes.size())
      return makeError("truncated member name");
    std::string name = bytes.substr(at + 46, nameLength).str();
    at += 46 + nameLength + extraLength + commentLength;
    if (compressedSize == 0xffffffff || member.size == 0xffffffff)
      return makeError("zip64 member '" + name + "' is not supported");

    // Offsets and sizes are 32-bit: add them in 64 bits, so that none wraps.
    uint64_t localHeader = localOffset;
    if (localHeader + 30 > bytes.size() ||
        read32(bytes, localHeader) != kLocalHeader)
      return makeError("bad local header of '" + name + "'");
    uint64_t dataStart = localHeader + 30 + read16(bytes, localHeader + 26) +
                         read16(bytes, localHeader + 28);
    if (dataStart + compressedSize > bytes.size())
      return makeError("member '" + name + "' is truncated");
    if (member.method != 0 && member.method != 8)
      return makeError("member '" + name + "' uses compression method " +
                       llvm::Twine(member.method) +
                       " (only stored and deflated)");
    if (member.method == 8 &&
        member.size > uint64_t(compressedSize) * kMaxDeflateRatio)
      return makeError("member '" + name + "' claims " +
                       llvm::Twine(member.size) + " bytes from " +
                       llvm::Twine(compressedSize) +
                       " deflated ones, more than deflate can produce");
    if (member.method == 0 && member.size != compressedSize)
      return makeError("stored member '" + name + "' has " +
                       llvm::Twine(compressedSize) + " bytes but claims " +
                       llvm::Twine(member.size));
    member.data = bytes.substr(dataStart, compressedSize);
    llvm::StringRef memberName(name);
    memberName.consume_back(".npy");
    member.name = memberName.str();
    members.push_back(std::move(member));
  }
  return members;
}

llvm::Expected<NamedTensors> readNpz(llvm::StringRef path,
                                     llvm::ArrayRef<std::string> bf16Names) {
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> buffer =
      llvm::MemoryBuffer::getFile(path, /*IsText=*/false,
                                  /*RequiresNullTerminator=*/false);
  if (!buffer)
    return makeError("cannot read '" + path +
                     "': " + buffer.getError().message());
  auto fail = [&](const llvm::Twine &why) {
    return makeError("'" + path + "' is not a valid .npz: " + why);
  };
  llvm::Expected<std::vector<NpzMember>> members =
      listNpzMembers((*buffer)->getBuffer());
  if (!members)
    return fail(llvm::toString(members.takeError()));

  NamedTensors tensors;
  for (const NpzMember &member : *members) {
    llvm::StringRef stored = member.data;
    std::string inflated;
    if (member.method == 8) {
      llvm::Expected<std::string> data = inflateRaw(stored, member.size);
      if (!data)
        return fail("member '" + member.name +
                    "': " + llvm::toString(data.takeError()));
      inflated = std::move(*data);
      stored = inflated;
    }
    llvm::Expected<HostTensor> tensor =
        parseNpy(stored, llvm::is_contained(bf16Names, member.name));
    if (!tensor)
      return fail("member '" + member.name +
                  "': " + llvm::toString(tensor.takeError()));
    tensors.emplace_back(member.name, std::move(*tensor));
  }
  return tensors;
}

llvm::Error writeNpz(llvm::StringRef path, const NamedTensors &tensors) {
  std::string archive, directory;
  for (const auto &[name, tensor] : tensors) {
    std::string member = serializeNpy(tensor);
    std::string fileName = name + ".npy";
    uint32_t crc = crc32(0L, reinterpret_cast<const Bytef *>(member.data()),
                         static_cast<uInt>(member.size()));
    uint32_t offset = static_cast<uint32_t>(archive.size());
    if (member.size() >= 0xffffffffu || archive.size() >= 0xffffffffu)
      return makeError("'" + path + "': member '" + name +
                       "' needs zip64, which prec does not write");

    auto writeCommon = [&](std::string &out) {
      write16(out, 20);   // version needed
      write16(out, 0);    // flags
      write16(out, 0);    // stored
      write16(out, 0);    // time
      write16(out, 0x21); // date: 1980-01-01
      write32(out, crc);
      write32(out, static_cast<uint32_t>(member.size()));
      write32(out, static_cast<uint32_t>(member.size()));
      write16(out, static_cast<uint16_t>(fileName.size()));
      write16(out, 0); // extra length
    };
    write32(archive, kLocalHeader);
    writeCommon(archive);
    archive += fileName;
    archive += member;

    write32(directory, kCentralHeader);
    write16(directory, 20); // version made by
    writeCommon(directory);
    write16(directory, 0); // comment length
    write16(directory, 0); // disk
    write16(directory, 0); // internal attributes
    write32(directory, 0); // external attributes
    write32(directory, offset);
    directory += fileName;
  }
  uint32_t directoryOffset = static_cast<uint32_t>(archive.size());
  archive += directory;
  write32(archive, kEndOfCentralDirectory);
  write16(archive, 0);
  write16(archive, 0);
  write16(archive, static_cast<uint16_t>(tensors.size()));
  write16(archive, static_cast<uint16_t>(tensors.size()));
  write32(archive, static_cast<uint32_t>(directory.size()));
  write32(archive, directoryOffset);
  write16(archive, 0);

  std::error_code error;
  llvm::raw_fd_ostream os(path, error, llvm::sys::fs::OF_None);
  if (error)
    return makeError("cannot write '" + path + "': " + error.message());
  os << archive;
  return llvm::Error::success();
}

} // namespace prec
