// SafeTensorsFile: a validated, memory-mapped safetensors file
// (https://github.com/huggingface/safetensors#format).
//
// Basic usage:
//     glosa::engine::SafeTensorsFile file("pkg/model.safetensors"); // throws PackageError
//     Tensor w = file.loadFloat("decoder.out.weight", {8000, 256});  // fp32 copy, shape checked
//     Tensor raw = file.view("embedding.weight");                    // zero-copy, stored dtype
//
// The constructor validates the whole file before anything can be read from it: the 8-byte
// little-endian header length (inside the file, at most 100 MB), the header JSON (an object, no
// duplicate keys), every entry's dtype (F32, F16, BF16, I32), shape (non-negative integers whose
// product does not overflow), data_offsets (inside the data section, begin <= end, span = number
// of elements × element size), that no two tensors overlap, and that every floating-point value
// is finite. Every error is a PackageError naming the file and, where there is one, the tensor.
//
// The mapping is read-only and shared with every view; it stays alive as long as this object or
// any Tensor returned by view() does. Views must not be written to. As with any mmap, truncating
// the file on disk while it is mapped makes later reads fault: package folders are not edited
// while the app runs.
#pragma once

#include "engine/packageerror.h"
#include "engine/tensor.h"

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace glosa::engine {

class SafeTensorsFile
{
public:
    // Maps and validates `path`; throws PackageError.
    explicit SafeTensorsFile(const std::string &path);

    const std::string &path() const { return m_path; }

    bool contains(const std::string &name) const;
    std::vector<std::string> names() const; // sorted
    // Throw PackageError when `name` is missing.
    Shape shape(const std::string &name) const;
    DType dtype(const std::string &name) const;

    // Zero-copy view of the mapped bytes in the stored dtype. The data is aligned only as well as
    // the file aligns it (writers pad the header to 8 bytes, so offsets that are multiples of the
    // element size give aligned data); use loadFloat() for 64-byte aligned storage.
    Tensor view(const std::string &name) const;
    // fp32 copy (F16/BF16 converted, F32 copied) in fresh 64-byte aligned storage. When
    // `expected` is not empty, the stored shape must equal it. Checks that all values are finite.
    // I32 tensors are refused: converting ids to float is never what a caller wants.
    Tensor loadFloat(const std::string &name, const Shape &expected = {}) const;

    // The optional "__metadata__" string map of the header.
    const std::map<std::string, std::string> &metadata() const { return m_metadata; }

    // Byte offset of the data section (8 + header length) and the file size, for diagnostics.
    std::uint64_t dataOffset() const { return m_dataOffset; }
    std::uint64_t fileSize() const { return m_fileSize; }

private:
    struct Entry
    {
        DType dtype = DType::F32;
        Shape shape;
        std::uint64_t begin = 0; // relative to the data section
        std::uint64_t end = 0;
    };
    struct Mapping;

    const Entry &entry(const std::string &name) const;
    [[noreturn]] void fail(const std::string &tensor, const std::string &message) const;
    void parseHeader(const char *header, std::size_t length);
    void checkLayout();
    void checkFinite() const;

    std::string m_path;
    std::shared_ptr<Mapping> m_mapping;
    std::uint64_t m_fileSize = 0;
    std::uint64_t m_dataOffset = 0;
    std::map<std::string, Entry> m_entries;
    std::map<std::string, std::string> m_metadata;
};

// Writes `tensors` (F32, F16, BF16, I32 or I8, any order; names unique) and `metadata` to `path`
// in the safetensors format, the header padded with spaces to 8 bytes and the data in the given
// order, so that SafeTensorsFile reads them back as they were. Throws PackageError naming `path`
// when it cannot be written completely.
void writeSafeTensors(const std::string &path,
                      const std::vector<std::pair<std::string, Tensor>> &tensors,
                      const std::map<std::string, std::string> &metadata = {});

// Largest header accepted; the reference implementation uses the same limit.
inline constexpr std::uint64_t kSafeTensorsMaxHeaderBytes = 100'000'000;

} // namespace glosa::engine
