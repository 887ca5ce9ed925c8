// Helpers shared by the tst_ops_*.cpp executables: seeded random tensors and error measures.
#pragma once

#include "engine/tensor.h"

#include <QtTest>

#include <cmath>
#include <random>

namespace glosa::test {

// Uniform in [lo, hi), deterministic for a given seed.
inline engine::Tensor randomTensor(const engine::Shape &shape, unsigned seed, float lo = -1.0f,
                                   float hi = 1.0f)
{
    engine::Tensor t(shape);
    std::mt19937 rng(seed);
    std::uniform_real_distribution<float> dist(lo, hi);
    float *p = t.data<float>();
    for (std::int64_t i = 0; i < t.numel(); ++i)
        p[i] = dist(rng);
    return t;
}

// Max |a - b|; infinity when the shapes differ so that a comparison fails loudly.
inline double maxAbsDiff(const engine::Tensor &a, const engine::Tensor &b)
{
    if (a.shape() != b.shape())
        return INFINITY;
    const float *pa = a.data<float>(), *pb = b.data<float>();
    double worst = 0.0;
    for (std::int64_t i = 0; i < a.numel(); ++i) {
        const double d = std::fabs(static_cast<double>(pa[i]) - pb[i]);
        if (!(d <= worst)) // also catches NaN
            worst = std::isnan(d) ? INFINITY : d;
    }
    return worst;
}

inline constexpr double kOpTolerance = 1e-4;

} // namespace glosa::test

// Compares two tensors within kOpTolerance, printing the shapes and the error on failure.
#define GLOSA_COMPARE_TENSORS(actual, expected)                                                    \
    do {                                                                                           \
        const double err_ = glosa::test::maxAbsDiff(actual, expected);                             \
        QVERIFY2(err_ <= glosa::test::kOpTolerance,                                                \
                 qPrintable(QStringLiteral("max abs error %1 (shapes %2 vs %3)")                   \
                                .arg(err_)                                                         \
                                .arg(QString::fromStdString(                                       \
                                    glosa::engine::shapeToString((actual).shape())))               \
                                .arg(QString::fromStdString(                                       \
                                    glosa::engine::shapeToString((expected).shape())))));          \
    } while (0)

// Checks that `expr` throws `type` and that its message contains `fragment`.
#define GLOSA_VERIFY_THROWS_WITH(type, expr, fragment)                                             \
    do {                                                                                           \
        bool thrown_ = false;                                                                      \
        try {                                                                                      \
            expr;                                                                                  \
        } catch (const type &e_) {                                                                 \
            thrown_ = true;                                                                        \
            QVERIFY2(std::string(e_.what()).find(fragment) != std::string::npos, e_.what());       \
        }                                                                                          \
        QVERIFY2(thrown_, "expected " #type " from " #expr);                                       \
    } while (0)
