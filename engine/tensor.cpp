#include "engine/tensor.h"

#include "engine/limits.h"

#include <cmath>
#include <cstdlib>
#include <cstring>
#include <numeric>
#include <stdexcept>

namespace glosa::engine {

struct Tensor::Storage
{
    void *data = nullptr;
    std::size_t capacity = 0;
    std::shared_ptr<void> owner; // set for wrapped memory; then `data` is not ours to free

    ~Storage()
    {
        if (!owner)
            std::free(data);
    }
};

std::size_t dtypeSize(DType type)
{
    switch (type) {
    case DType::F32:
    case DType::I32:
        return 4;
    case DType::F16:
    case DType::BF16:
        return 2;
    case DType::I8:
        return 1;
    }
    return 0;
}

const char *dtypeName(DType type)
{
    switch (type) {
    case DType::F32:
        return "F32";
    case DType::I32:
        return "I32";
    case DType::F16:
        return "F16";
    case DType::BF16:
        return "BF16";
    case DType::I8:
        return "I8";
    }
    return "?";
}

std::int64_t shapeNumel(const Shape &shape)
{
    std::int64_t n = 1;
    for (auto d : shape)
        if (__builtin_mul_overflow(n, d, &n))
            throw std::overflow_error("tensor shape " + shapeToString(shape) +
                                      " has more elements than a 64-bit count holds");
    return n;
}

std::string shapeToString(const Shape &shape)
{
    std::string s = "[";
    for (std::size_t i = 0; i < shape.size(); ++i) {
        if (i)
            s += ", ";
        s += std::to_string(shape[i]);
    }
    return s + "]";
}

static void checkShape(const Shape &shape)
{
    if (shape.size() > static_cast<std::size_t>(limits::kMaxTensorRank))
        throw std::invalid_argument("tensor shape has " + std::to_string(shape.size()) +
                                    " dimensions, more than the limit of " +
                                    std::to_string(limits::kMaxTensorRank));
    for (auto d : shape)
        if (d < 0)
            throw std::invalid_argument("tensor shape " + shapeToString(shape) +
                                        " has a negative dimension");
    std::int64_t n = 1;
    for (auto d : shape)
        if (__builtin_mul_overflow(n, d, &n) || n > limits::kMaxTensorElements)
            throw std::invalid_argument("tensor shape " + shapeToString(shape) +
                                        " has more elements than the limit of " +
                                        std::to_string(limits::kMaxTensorElements));
}

Tensor::Tensor(Shape shape, DType dtype) : m_shape(std::move(shape)), m_dtype(dtype)
{
    checkShape(m_shape);
    const std::size_t bytes = byteSize();
    // aligned_alloc needs a size that is a multiple of the alignment.
    const std::size_t capacity =
        std::max<std::size_t>(kTensorAlignment, (bytes + kTensorAlignment - 1) /
                                                    kTensorAlignment * kTensorAlignment);
    m_storage = std::make_shared<Storage>();
    m_storage->data = std::aligned_alloc(kTensorAlignment, capacity);
    if (!m_storage->data)
        throw std::bad_alloc();
    m_storage->capacity = capacity;
    std::memset(m_storage->data, 0, capacity);
}

Tensor Tensor::fromFloats(const Shape &shape, const float *values)
{
    Tensor t(shape, DType::F32);
    std::memcpy(t.raw(), values, t.byteSize());
    return t;
}

Tensor Tensor::fromFloats(const Shape &shape, const std::vector<float> &values)
{
    if (static_cast<std::int64_t>(values.size()) != shapeNumel(shape))
        throw std::invalid_argument("fromFloats: " + std::to_string(values.size()) +
                                    " values for shape " + shapeToString(shape));
    return fromFloats(shape, values.data());
}

Tensor Tensor::fromInts(const Shape &shape, const std::vector<std::int32_t> &values)
{
    if (static_cast<std::int64_t>(values.size()) != shapeNumel(shape))
        throw std::invalid_argument("fromInts: " + std::to_string(values.size()) +
                                    " values for shape " + shapeToString(shape));
    Tensor t(shape, DType::I32);
    std::memcpy(t.raw(), values.data(), t.byteSize());
    return t;
}

Tensor Tensor::wrap(void *data, const Shape &shape, DType dtype, std::shared_ptr<void> owner)
{
    checkShape(shape);
    Tensor t;
    t.m_storage = std::make_shared<Storage>();
    t.m_storage->data = data;
    t.m_storage->capacity = shapeNumel(shape) * dtypeSize(dtype);
    t.m_storage->owner = owner ? std::move(owner) : std::shared_ptr<void>(data, [](void *) {});
    t.m_shape = shape;
    t.m_dtype = dtype;
    return t;
}

std::int64_t Tensor::dim(int index) const
{
    const int r = rank();
    const int i = index < 0 ? index + r : index;
    if (i < 0 || i >= r)
        throw std::out_of_range("dimension " + std::to_string(index) + " of a tensor of shape " +
                                shapeToString(m_shape));
    return m_shape[i];
}

void *Tensor::raw()
{
    return m_storage ? static_cast<char *>(m_storage->data) + m_offset : nullptr;
}

const void *Tensor::raw() const
{
    return m_storage ? static_cast<const char *>(m_storage->data) + m_offset : nullptr;
}

void Tensor::checkDtype(DType expected) const
{
    const bool sixteenBit = expected == DType::F16 && (m_dtype == DType::F16 || m_dtype == DType::BF16);
    if (expected != m_dtype && !sixteenBit)
        throw std::invalid_argument(std::string("tensor holds ") + dtypeName(m_dtype) +
                                    ", accessed as " + dtypeName(expected));
}

Tensor Tensor::reshaped(const Shape &shape) const
{
    Shape s = shape;
    int inferred = -1;
    std::int64_t known = 1;
    for (int i = 0; i < static_cast<int>(s.size()); ++i) {
        if (s[i] == -1) {
            if (inferred >= 0)
                throw std::invalid_argument("reshape to " + shapeToString(shape) +
                                            ": more than one -1");
            inferred = i;
        } else {
            known *= s[i];
        }
    }
    if (inferred >= 0 && known > 0)
        s[inferred] = numel() / known;
    if (shapeNumel(s) != numel())
        throw std::invalid_argument("cannot reshape " + shapeToString(m_shape) + " to " +
                                    shapeToString(shape));
    Tensor t = *this;
    t.m_shape = std::move(s);
    return t;
}

Tensor Tensor::slice(std::int64_t begin, std::int64_t end) const
{
    if (rank() == 0 || begin < 0 || end < begin || end > m_shape[0])
        throw std::out_of_range("slice [" + std::to_string(begin) + ", " + std::to_string(end) +
                                ") of a tensor of shape " + shapeToString(m_shape));
    Tensor t = *this;
    const std::size_t rowBytes = byteSize() / (m_shape[0] ? m_shape[0] : 1);
    t.m_offset += static_cast<std::size_t>(begin) * rowBytes;
    t.m_shape[0] = end - begin;
    return t;
}

Tensor Tensor::operator[](std::int64_t index) const
{
    Tensor t = slice(index, index + 1);
    t.m_shape.erase(t.m_shape.begin());
    return t;
}

Tensor Tensor::clone() const
{
    Tensor t(m_shape, m_dtype);
    if (byteSize())
        std::memcpy(t.raw(), raw(), byteSize());
    return t;
}

void Tensor::resize(const Shape &shape, DType dtype)
{
    checkShape(shape);
    const std::size_t bytes = static_cast<std::size_t>(shapeNumel(shape)) * dtypeSize(dtype);
    const bool fits = m_storage && !m_storage->owner && m_storage.use_count() == 1 &&
                      m_offset + bytes <= m_storage->capacity;
    if (fits) {
        m_shape = shape;
        m_dtype = dtype;
        return;
    }
    *this = Tensor(shape, dtype);
}

float halfToFloat(std::uint16_t h)
{
    const std::uint32_t sign = static_cast<std::uint32_t>(h & 0x8000u) << 16;
    std::uint32_t exponent = (h >> 10) & 0x1fu;
    std::uint32_t mantissa = h & 0x3ffu;
    std::uint32_t bits;
    if (exponent == 0) {
        if (mantissa == 0) {
            bits = sign;
        } else { // subnormal: normalise
            exponent = 127 - 15 + 1;
            while ((mantissa & 0x400u) == 0) {
                mantissa <<= 1;
                --exponent;
            }
            mantissa &= 0x3ffu;
            bits = sign | (exponent << 23) | (mantissa << 13);
        }
    } else if (exponent == 0x1f) {
        bits = sign | 0x7f800000u | (mantissa << 13);
    } else {
        bits = sign | ((exponent + 127 - 15) << 23) | (mantissa << 13);
    }
    float f;
    std::memcpy(&f, &bits, 4);
    return f;
}

std::uint16_t floatToHalf(float value)
{
    std::uint32_t x;
    std::memcpy(&x, &value, 4);
    const std::uint32_t sign = (x >> 16) & 0x8000u;
    const std::uint32_t absx = x & 0x7fffffffu;
    if (absx >= 0x7f800000u) // inf or nan
        return static_cast<std::uint16_t>(sign | 0x7c00u | (absx > 0x7f800000u ? 0x200u : 0));
    if (absx >= 0x477ff000u) // rounds to >= 65520: overflow to inf
        return static_cast<std::uint16_t>(sign | 0x7c00u);
    if (absx < 0x38800000u) { // below the smallest normal half: subnormal or zero
        float f;
        std::uint32_t a = absx;
        std::memcpy(&f, &a, 4);
        // Scale so that the subnormal half's integer mantissa is the rounded value.
        const float scaled = f * 16777216.0f; // 2^24
        return static_cast<std::uint16_t>(sign | static_cast<std::uint32_t>(std::nearbyint(scaled)));
    }
    const std::uint32_t mantissaOdd = (absx >> 13) & 1u;
    const std::uint32_t rounded = absx + 0xfffu + mantissaOdd;
    return static_cast<std::uint16_t>(sign | ((rounded - 0x38000000u) >> 13));
}

float bfloat16ToFloat(std::uint16_t bits)
{
    const std::uint32_t x = static_cast<std::uint32_t>(bits) << 16;
    float f;
    std::memcpy(&f, &x, 4);
    return f;
}

Tensor Tensor::toFloat32() const
{
    if (m_dtype == DType::F32)
        return clone();
    Tensor out(m_shape, DType::F32);
    float *dst = out.data<float>();
    const std::int64_t n = numel();
    // memcpy loads: a tensor wrapped over a safetensors file may start at any byte offset
    // (UBSan: misaligned load, found by fuzz_safetensors); compilers make them plain loads.
    const auto *src = static_cast<const unsigned char *>(raw());
    if (m_dtype == DType::F16 || m_dtype == DType::BF16) {
        auto convert = m_dtype == DType::F16 ? halfToFloat : bfloat16ToFloat;
        for (std::int64_t i = 0; i < n; ++i) {
            std::uint16_t bits;
            std::memcpy(&bits, src + 2 * i, sizeof bits);
            dst[i] = convert(bits);
        }
    } else {
        for (std::int64_t i = 0; i < n; ++i) {
            std::int32_t value;
            std::memcpy(&value, src + 4 * i, sizeof value);
            dst[i] = static_cast<float>(value);
        }
    }
    return out;
}

bool Tensor::allFinite() const
{
    const std::int64_t n = numel();
    if (m_dtype == DType::F32) {
        const float *p = data<float>();
        for (std::int64_t i = 0; i < n; ++i)
            if (!std::isfinite(p[i]))
                return false;
        return true;
    }
    if (m_dtype == DType::F16 || m_dtype == DType::BF16) {
        const auto *p = static_cast<const std::uint16_t *>(raw());
        // Exponent all ones means inf or nan in both formats.
        const std::uint16_t mask = m_dtype == DType::F16 ? 0x7c00u : 0x7f80u;
        for (std::int64_t i = 0; i < n; ++i)
            if ((p[i] & mask) == mask)
                return false;
        return true;
    }
    return true;
}

} // namespace glosa::engine
