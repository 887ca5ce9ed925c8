// Tensor: an n-dimensional, row-major (C-contiguous) array on 64-byte aligned storage.
//
// Basic usage:
//     glosa::engine::Tensor x({2, 3});              // fp32, zero-filled
//     float *p = x.data<float>();
//     Tensor row = x.slice(1, 2);                   // view of row 1: shape [1, 3], shares storage
//     Tensor flat = x.reshaped({6});                // view, shares storage
//     Tensor w = Tensor::fromHalf(bits, {4, 4});    // fp16 storage converted to fp32 at load
//
// Compute happens in fp32 and int32; fp16/bf16 exist only as storage formats that are converted
// once when weights are loaded (see toFloat32 / halfToFloat / bfloat16ToFloat).
#pragma once

#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <memory>
#include <string>
#include <vector>

namespace glosa::engine {

// I8: int8 codes of a quantized weight, storage only (ModelPackage::weight scales them to F32).
enum class DType : std::uint8_t { F32, I32, F16, BF16, I8 };

std::size_t dtypeSize(DType type);
const char *dtypeName(DType type);

using Shape = std::vector<std::int64_t>;

// The product of the dimensions; throws std::overflow_error when it does not fit 64 bits.
std::int64_t shapeNumel(const Shape &shape);
std::string shapeToString(const Shape &shape); // "[2, 3]"

inline constexpr std::size_t kTensorAlignment = 64;

class Tensor
{
public:
    Tensor() = default;
    // Allocates zero-filled, 64-byte aligned storage.
    explicit Tensor(Shape shape, DType dtype = DType::F32);
    Tensor(std::initializer_list<std::int64_t> shape, DType dtype = DType::F32)
        : Tensor(Shape(shape), dtype)
    {}

    // Copies `values` (must hold numel(shape) floats).
    static Tensor fromFloats(const Shape &shape, const float *values);
    static Tensor fromFloats(const Shape &shape, const std::vector<float> &values);
    static Tensor fromInts(const Shape &shape, const std::vector<std::int32_t> &values);
    // Wraps memory owned elsewhere (e.g. a memory-mapped file); `owner` keeps it alive.
    // `data` must stay valid and unchanged while any view of the tensor exists.
    static Tensor wrap(void *data, const Shape &shape, DType dtype, std::shared_ptr<void> owner);

    bool empty() const { return m_storage == nullptr || numel() == 0; }
    DType dtype() const { return m_dtype; }
    const Shape &shape() const { return m_shape; }
    int rank() const { return static_cast<int>(m_shape.size()); }
    // Negative indices count from the end, as in Python.
    std::int64_t dim(int index) const;
    std::int64_t numel() const { return shapeNumel(m_shape); }
    std::size_t byteSize() const { return static_cast<std::size_t>(numel()) * dtypeSize(m_dtype); }

    // Typed access; throws std::invalid_argument when T does not match dtype().
    template <typename T> T *data();
    template <typename T> const T *data() const;
    void *raw();
    const void *raw() const;

    // Views share storage with this tensor.
    Tensor reshaped(const Shape &shape) const;           // same numel; one dim may be -1
    Tensor slice(std::int64_t begin, std::int64_t end) const; // rows [begin, end) of dim 0
    Tensor operator[](std::int64_t index) const;          // one row of dim 0, rank - 1

    Tensor clone() const; // deep copy, fresh aligned storage
    // Reallocates only when the current storage is too small or shared with another tensor;
    // contents are unspecified afterwards. Lets ops reuse output buffers across steps.
    void resize(const Shape &shape, DType dtype = DType::F32);
    // Converts F16/BF16/F32 storage to a new fp32 tensor (F32: a deep copy).
    Tensor toFloat32() const;

    // Element-wise comparison helpers used by tests and validation.
    bool allFinite() const; // F32/F16/BF16 only

private:
    struct Storage;
    std::shared_ptr<Storage> m_storage;
    std::size_t m_offset = 0; // bytes from the start of the storage
    Shape m_shape;
    DType m_dtype = DType::F32;

    template <typename T> static constexpr DType dtypeOf();
    void checkDtype(DType expected) const;
};

float halfToFloat(std::uint16_t bits);
std::uint16_t floatToHalf(float value); // round to nearest even
float bfloat16ToFloat(std::uint16_t bits);

template <typename T> constexpr DType Tensor::dtypeOf()
{
    if constexpr (std::is_same_v<T, float>)
        return DType::F32;
    else if constexpr (std::is_same_v<T, std::int32_t>)
        return DType::I32;
    else if constexpr (std::is_same_v<T, std::uint16_t>)
        return DType::F16; // raw 16-bit storage; checkDtype accepts F16 and BF16
    else if constexpr (std::is_same_v<T, std::int8_t>)
        return DType::I8;
    else
        static_assert(sizeof(T) == 0, "unsupported tensor element type");
}

template <typename T> T *Tensor::data()
{
    checkDtype(dtypeOf<T>());
    return static_cast<T *>(raw());
}

template <typename T> const T *Tensor::data() const
{
    checkDtype(dtypeOf<T>());
    return static_cast<const T *>(raw());
}

} // namespace glosa::engine
