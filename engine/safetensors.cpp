#include "engine/safetensors.h"

#include "engine/jsonfile.h"
#include "engine/limits.h"
#include "engine/regularfile.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <limits>
#include <set>
#include <tuple>

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

namespace glosa::engine {

namespace {

std::string errnoText(int error)
{
    return std::strerror(error);
}

bool parseDtype(const std::string &name, DType &dtype)
{
    static const std::map<std::string, DType> supported = {
        {"F32", DType::F32}, {"F16", DType::F16}, {"BF16", DType::BF16}, {"I32", DType::I32},
        {"I8", DType::I8}};
    const auto it = supported.find(name);
    if (it == supported.end())
        return false;
    dtype = it->second;
    return true;
}

// Dtypes of the safetensors format that this engine does not load; named separately so the
// message says "not supported" rather than "unknown".
bool isKnownSafeTensorsDtype(const std::string &name)
{
    static const std::set<std::string> known = {"BOOL", "U8",  "I8",  "I16",     "U16",    "U32",
                                                "I64",  "U64", "F64", "F8_E4M3", "F8_E5M2"};
    return known.count(name) > 0;
}

std::string indexToString(std::int64_t flat, const Shape &shape)
{
    Shape index(shape.size());
    for (std::size_t i = shape.size(); i-- > 0;) {
        const std::int64_t d = shape[i] > 0 ? shape[i] : 1;
        index[i] = flat % d;
        flat /= d;
    }
    return shapeToString(index);
}

// Data in the mapping is aligned only as well as the file aligns it: read through memcpy.
template <typename Bits> Bits loadBits(const char *data, std::int64_t index)
{
    Bits bits;
    std::memcpy(&bits, data + index * static_cast<std::int64_t>(sizeof(Bits)), sizeof(Bits));
    return bits;
}

// Index of the first value whose exponent bits are all ones (inf or NaN), or -1. Scans in blocks
// without an early exit so that the compiler vectorises the common, all-finite case.
template <typename Bits>
std::int64_t firstNonFinite(const char *data, std::int64_t n, Bits exponent)
{
    constexpr std::int64_t kBlock = 4096;
    for (std::int64_t start = 0; start < n; start += kBlock) {
        const std::int64_t end = std::min(n, start + kBlock);
        bool any = false;
        for (std::int64_t i = start; i < end; ++i)
            any |= (loadBits<Bits>(data, i) & exponent) == exponent;
        if (any)
            for (std::int64_t i = start; i < end; ++i)
                if ((loadBits<Bits>(data, i) & exponent) == exponent)
                    return i;
    }
    return -1;
}

} // namespace

struct SafeTensorsFile::Mapping
{
    void *address = MAP_FAILED;
    std::size_t size = 0;
    ~Mapping()
    {
        if (address != MAP_FAILED)
            ::munmap(address, size);
    }
    const char *bytes() const { return static_cast<const char *>(address); }
};

void SafeTensorsFile::fail(const std::string &tensor, const std::string &message) const
{
    throw PackageError(m_path, tensor, message);
}

SafeTensorsFile::SafeTensorsFile(const std::string &path) : m_path(path)
{
    RegularFile file(path);
    if (!file.ok())
        fail({}, file.openFailed() ? "cannot open: " + file.error() : file.error());
    m_fileSize = file.size();
    if (m_fileSize < 8)
        fail({}, "file is " + std::to_string(m_fileSize) +
                     " bytes, too short for the 8-byte header length of a safetensors file");
    if (m_fileSize > std::numeric_limits<std::size_t>::max())
        fail({}, "file of " + std::to_string(m_fileSize) + " bytes is too large to map");

    m_mapping = std::make_shared<Mapping>();
    m_mapping->size = static_cast<std::size_t>(m_fileSize);
    m_mapping->address = ::mmap(nullptr, m_mapping->size, PROT_READ, MAP_PRIVATE, file.fd(), 0);
    if (m_mapping->address == MAP_FAILED)
        fail({}, "cannot memory-map " + std::to_string(m_fileSize) + " bytes: " + errnoText(errno));

    const auto *bytes = reinterpret_cast<const unsigned char *>(m_mapping->bytes());
    std::uint64_t headerLength = 0;
    for (int i = 7; i >= 0; --i) // little-endian u64, independent of the host byte order
        headerLength = (headerLength << 8) | bytes[i];
    if (headerLength > m_fileSize - 8)
        fail({}, "header length " + std::to_string(headerLength) + " exceeds the " +
                     std::to_string(m_fileSize - 8) + " bytes that follow it (truncated file or " +
                     "not a safetensors file)");
    if (headerLength > kSafeTensorsMaxHeaderBytes)
        fail({}, "header length " + std::to_string(headerLength) + " exceeds the limit of " +
                     std::to_string(kSafeTensorsMaxHeaderBytes) + " bytes");
    if (headerLength < 2)
        fail({},
             "header length " + std::to_string(headerLength) + " is too short for a JSON object");
    m_dataOffset = 8 + headerLength;

    parseHeader(m_mapping->bytes() + 8, static_cast<std::size_t>(headerLength));
    checkLayout();
    checkFinite();
}

namespace {

using nlohmann::json;

// "__metadata__": an object of strings, into `metadata`.
void readMetadata(const json &value, const std::string &path,
                  std::map<std::string, std::string> &metadata)
{
    if (!value.is_object())
        throw PackageError(path, {},
                           "\"__metadata__\" is a JSON " + std::string(value.type_name()) +
                               ", expected an object of strings");
    for (const auto &[key, text] : value.items()) {
        if (!text.is_string())
            throw PackageError(path, {},
                               "\"__metadata__\" value \"" + key + "\" is a JSON " +
                                   text.type_name() + ", expected a string");
        metadata[key] = text.get<std::string>();
    }
}

// A tensor's "dtype", a supported one, into `dtype`; returns its name.
std::string entryDtype(const std::string &name, const json &dtype, const std::string &path,
                       DType &parsed)
{
    if (!dtype.is_string())
        throw PackageError(path, name,
                           "\"dtype\" is a JSON " + std::string(dtype.type_name()) +
                               ", expected a string");
    const std::string dtypeText = dtype.get<std::string>();
    if (!parseDtype(dtypeText, parsed))
        throw PackageError(path, name,
                           "dtype \"" + dtypeText + "\" is " +
                               (isKnownSafeTensorsDtype(dtypeText) ? "not supported" : "unknown") +
                               " (supported: F32, F16, BF16, I32, I8)");
    return dtypeText;
}

// A tensor's "shape" within the rank and element limits, into `shape`; returns its element
// count.
std::uint64_t entryShape(const std::string &name, const json &shape, const std::string &path,
                         Shape &parsed)
{
    if (!shape.is_array())
        throw PackageError(path, name,
                           "\"shape\" is a JSON " + std::string(shape.type_name()) +
                               ", expected an array of integers");
    if (shape.size() > static_cast<std::size_t>(limits::kMaxTensorRank))
        throw PackageError(path, name,
                           "shape has " + std::to_string(shape.size()) +
                               " dimensions, more than the limit of " +
                               std::to_string(limits::kMaxTensorRank));
    std::uint64_t numel = 1;
    for (const json &d : shape) {
        if (!d.is_number_integer())
            throw PackageError(
                path, name, "shape " + shape.dump() + " has a non-integer dimension " + d.dump());
        if (d.is_number_integer() && !d.is_number_unsigned() && d.get<std::int64_t>() < 0)
            throw PackageError(path, name, "shape " + shape.dump() + " has a negative dimension");
        const std::uint64_t dim = d.get<std::uint64_t>();
        if (dim > static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max()) ||
            __builtin_mul_overflow(numel, dim, &numel) ||
            numel > static_cast<std::uint64_t>(limits::kMaxTensorElements))
            throw PackageError(path, name,
                               "shape " + shape.dump() + " has more elements than the limit of " +
                                   std::to_string(limits::kMaxTensorElements));
        parsed.push_back(static_cast<std::int64_t>(dim));
    }
    return numel;
}

// A tensor's "data_offsets": [begin, end], begin <= end.
std::pair<std::uint64_t, std::uint64_t> entryOffsets(const std::string &name, const json &offsets,
                                                     const std::string &path)
{
    if (!offsets.is_array() || offsets.size() != 2 || !offsets[0].is_number_unsigned() ||
        !offsets[1].is_number_unsigned())
        throw PackageError(path, name,
                           "\"data_offsets\" is " + offsets.dump() +
                               ", expected [begin, end] with non-negative integers");
    const std::uint64_t begin = offsets[0].get<std::uint64_t>();
    const std::uint64_t end = offsets[1].get<std::uint64_t>();
    if (begin > end)
        throw PackageError(path, name, "data_offsets " + offsets.dump() + " end before they begin");
    return {begin, end};
}

} // namespace

void SafeTensorsFile::parseHeader(const char *header, std::size_t length)
{
    // nlohmann keeps the last of duplicate keys silently; a duplicate tensor name would let one
    // definition hide another, so duplicates are refused.
    JsonBounds bounds;
    bounds.maxTopLevel = limits::kMaxTensors + 1; // and "__metadata__"
    bounds.topLevelName = "entries (tensors and \"__metadata__\")";
    bounds.rejectDuplicateKeys = true;
    json root;
    const std::string refused = parseJsonBounded(std::string_view(header, length), bounds, root);
    if (!refused.empty())
        fail({}, "header " + (refused.rfind("not valid", 0) == 0 ? "is " + refused : refused));
    if (!root.is_object())
        fail({}, std::string("header is a JSON ") + root.type_name() + ", expected an object");

    for (const auto &[name, value] : root.items()) {
        if (name == "__metadata__") {
            readMetadata(value, m_path, m_metadata);
            continue;
        }
        if (!value.is_object())
            fail(name, std::string("entry is a JSON ") + value.type_name() +
                           ", expected an object with dtype, shape and data_offsets");
        for (const char *key : {"dtype", "shape", "data_offsets"})
            if (!value.contains(key))
                fail(name, std::string("entry has no \"") + key + "\"");
        Entry entry;
        const std::string dtypeText = entryDtype(name, value["dtype"], m_path, entry.dtype);
        const std::uint64_t numel = entryShape(name, value["shape"], m_path, entry.shape);
        std::tie(entry.begin, entry.end) = entryOffsets(name, value["data_offsets"], m_path);
        const std::uint64_t bytes = numel * dtypeSize(entry.dtype); // numel is within the limit
        if (bytes != entry.end - entry.begin)
            fail(name, "shape " + shapeToString(entry.shape) + " × " + dtypeText + " = " +
                           std::to_string(bytes) + " bytes but data_offsets span " +
                           std::to_string(entry.end - entry.begin) + " bytes");
        m_entries.emplace(name, std::move(entry));
    }
}

void SafeTensorsFile::checkLayout()
{
    const std::uint64_t dataSize = m_fileSize - m_dataOffset;
    std::vector<std::pair<const std::string *, const Entry *>> byOffset;
    for (const auto &[name, entry] : m_entries) {
        if (entry.end > dataSize)
            fail(name, "data_offsets [" + std::to_string(entry.begin) + ", " +
                           std::to_string(entry.end) + "] reach past the end of the " +
                           std::to_string(dataSize) + "-byte data section (file size " +
                           std::to_string(m_fileSize) + ", data starts at byte " +
                           std::to_string(m_dataOffset) + ")");
        if (entry.end > entry.begin)
            byOffset.emplace_back(&name, &entry);
    }
    std::sort(byOffset.begin(), byOffset.end(),
              [](const auto &a, const auto &b) { return a.second->begin < b.second->begin; });
    // Each tensor must start at or after the furthest end seen so far.
    const std::pair<const std::string *, const Entry *> *furthest = nullptr;
    for (const auto &current : byOffset) {
        if (furthest && current.second->begin < furthest->second->end)
            fail(*current.first, "data_offsets [" + std::to_string(current.second->begin) + ", " +
                                     std::to_string(current.second->end) + "] overlap tensor \"" +
                                     *furthest->first + "\" at [" +
                                     std::to_string(furthest->second->begin) + ", " +
                                     std::to_string(furthest->second->end) + "]");
        if (!furthest || current.second->end > furthest->second->end)
            furthest = &current;
    }
}

void SafeTensorsFile::checkFinite() const
{
    for (const auto &[name, entry] : m_entries) {
        if (entry.dtype == DType::I32 || entry.dtype == DType::I8)
            continue; // integers are always finite
        const char *data = m_mapping->bytes() + m_dataOffset + entry.begin;
        const std::int64_t n = shapeNumel(entry.shape);
        std::int64_t bad;
        bool isNan;
        if (entry.dtype == DType::F32) {
            bad = firstNonFinite<std::uint32_t>(data, n, 0x7f800000u);
            isNan = bad >= 0 && (loadBits<std::uint32_t>(data, bad) & 0x007fffffu) != 0;
        } else {
            // F16: 5 exponent bits, 10 mantissa bits; BF16: 8 and 7.
            const std::uint16_t exponent = entry.dtype == DType::F16 ? 0x7c00u : 0x7f80u;
            bad = firstNonFinite<std::uint16_t>(data, n, exponent);
            isNan = bad >= 0 && (loadBits<std::uint16_t>(data, bad) & (~exponent & 0x7fffu)) != 0;
        }
        if (bad >= 0)
            fail(name, std::string("value ") + std::to_string(bad) + " (index " +
                           indexToString(bad, entry.shape) + ") is " +
                           (isNan ? "NaN" : "infinite") +
                           "; the weights are corrupt or training diverged");
    }
}

const SafeTensorsFile::Entry &SafeTensorsFile::entry(const std::string &name) const
{
    const auto it = m_entries.find(name);
    if (it == m_entries.end())
        fail(name, "not found (the file has " + std::to_string(m_entries.size()) + " tensors)");
    return it->second;
}

bool SafeTensorsFile::contains(const std::string &name) const
{
    return m_entries.count(name) > 0;
}

std::vector<std::string> SafeTensorsFile::names() const
{
    std::vector<std::string> result;
    result.reserve(m_entries.size());
    for (const auto &item : m_entries)
        result.push_back(item.first);
    return result;
}

Shape SafeTensorsFile::shape(const std::string &name) const
{
    return entry(name).shape;
}

DType SafeTensorsFile::dtype(const std::string &name) const
{
    return entry(name).dtype;
}

Tensor SafeTensorsFile::view(const std::string &name) const
{
    const Entry &e = entry(name);
    // The mapping is PROT_READ; Tensor::wrap takes a mutable pointer only because tensors in
    // general are writable. Writing to a view faults, which the class comment forbids.
    char *data = const_cast<char *>(m_mapping->bytes()) + m_dataOffset + e.begin;
    return Tensor::wrap(data, e.shape, e.dtype, std::shared_ptr<void>(m_mapping, data));
}

Tensor SafeTensorsFile::loadFloat(const std::string &name, const Shape &expected) const
{
    const Entry &e = entry(name);
    if (!expected.empty() && e.shape != expected)
        fail(name, "shape " + shapeToString(e.shape) + " does not match the expected " +
                       shapeToString(expected));
    if (e.dtype == DType::I32 || e.dtype == DType::I8)
        fail(name, std::string("dtype ") + dtypeName(e.dtype) +
                       " cannot be loaded as floating-point weights" +
                       (e.dtype == DType::I8 ? " without its scales" : ""));
    // Finiteness was checked for every tensor when the file was opened, and F16/BF16 to F32
    // conversion maps finite values to finite values, so the copy needs no second scan.
    return view(name).toFloat32();
}

void writeSafeTensors(const std::string &path,
                      const std::vector<std::pair<std::string, Tensor>> &tensors,
                      const std::map<std::string, std::string> &metadata)
{
    static const std::map<DType, const char *> names = {{DType::F32, "F32"},
                                                        {DType::F16, "F16"},
                                                        {DType::BF16, "BF16"},
                                                        {DType::I32, "I32"},
                                                        {DType::I8, "I8"}};
    nlohmann::json header = nlohmann::json::object();
    if (!metadata.empty())
        header["__metadata__"] = metadata;
    std::uint64_t offset = 0;
    for (const auto &[name, tensor] : tensors) {
        if (header.contains(name))
            throw PackageError(path, name, "written twice");
        const std::uint64_t bytes = tensor.empty() ? 0 : tensor.byteSize();
        header[name] = {{"dtype", names.at(tensor.dtype())},
                        {"shape", tensor.shape()},
                        {"data_offsets", nlohmann::json::array({offset, offset + bytes})}};
        offset += bytes;
    }
    std::string text = header.dump();
    text.append((8 - text.size() % 8) % 8, ' ');
    FileWriter out(path);
    char length[8];
    for (int i = 0; i < 8; ++i)
        length[i] = static_cast<char>((std::uint64_t(text.size()) >> (8 * i)) & 0xff);
    out.write(length, 8);
    out.write(text.data(), text.size());
    for (const auto &entry : tensors)
        if (!entry.second.empty())
            out.write(entry.second.raw(), entry.second.byteSize());
    if (const std::string why = out.finish(); !why.empty())
        throw PackageError(path, {}, why);
}

} // namespace glosa::engine
