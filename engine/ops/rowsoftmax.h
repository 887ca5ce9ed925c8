// Log-softmax of one wide row (a decoder's output layer) in pieces, so that a greedy search can
// take a row's best token and its log-probability without writing the row.
//
// Basic usage:
//     const ops::RowNormalizer norm = ops::rowNormalizer(logits, vocab);
//     ops::logSoftmaxRow(logits, vocab, norm, logProbs);          // the whole distribution, or
//     float best;
//     std::int32_t token = ops::bestOfRow(logits, vocab, norm, &best); // only its argmax
//
// Both compute every value as (x[j] - max) - logSum in fp32 with the same normaliser, so the
// token and log-probability bestOfRow() gives are bit for bit those BestSampler::sample would
// pick from logSoftmaxRow()'s output: its first position of the largest value (rounding can make
// a token below the largest logit tie with it; the first of them wins, as on the written row).
// That is why the decoder's full path uses these loops too instead of oneDNN's logsoftmax, whose
// exp and summation order differ.
//
// Why: at batch 32 a 65,001-wide output layer's log-softmax (reading and writing 8 MB a step) and
// the search's argmax over it were ~8% of an OPUS-MT model's greedy step; the row of one
// hypothesis (260 KB) stays in L2 through the three read-only passes here
// (docs/benchmarks.md, "Imported models at small M and the output layer").
//
// The exponentials use glibc's vector expf (libmvec: 16 lanes with AVX-512 where oneDNN may use
// it, else 8 with AVX2, else the scalar expf), chosen once per process like halfgemv.h's kernel.
#pragma once

#include <cstdint>
#include <functional>
#include <span>

namespace glosa::engine::ops {

struct RowNormalizer
{
    float max = 0.0f;    // max_j x[j] (-inf when every entry is)
    float logSum = 0.0f; // log Σ_j exp(x[j] - max)
};

// x [n], n >= 1. Entries may be -inf (they add nothing); NaN makes the result NaN.
RowNormalizer rowNormalizer(const float *x, std::int64_t n);
// The normaliser's two passes apart, for a row whose max is taken while it is written (the int8
// output layer's rescale, quantizedlinear.h): rowNormalizer(x, n) is, bit for bit,
// rowNormalizer(x, n, rowMax(x, n)), and rowMax of a row is the largest rowMax of its parts: a
// max does not round and skips NaN either way (only a row whose largest entries are zeros of
// both signs could get the other zero, which no difference, exp or log-probability tells apart
// from it but for the sign of a log-probability of exactly 0).
float rowMax(const float *x, std::int64_t n);
RowNormalizer rowNormalizer(const float *x, std::int64_t n, float max);
// rowNormalizer() of each row of y [rows, n] into out [rows]; rowDone(r), when given, as soon as
// row r's is written (from OpenMP threads, several rows at once).
void rowNormalizers(const float *y, std::int64_t rows, std::int64_t n, RowNormalizer *out,
                    const std::function<void(std::int64_t)> *rowDone = nullptr);
// out[j] = (x[j] - norm.max) - norm.logSum; out may be x.
void logSoftmaxRow(const float *x, std::int64_t n, RowNormalizer norm, float *out);
// The first j with the largest (x[j] - norm.max) - norm.logSum, and that value in *logProb; -1
// (and *logProb untouched) when every entry is -inf or NaN. Entries the caller set to -inf after
// rowNormalizer() (ids never generated) are never chosen.
std::int32_t bestOfRow(const float *x, std::int64_t n, RowNormalizer norm, float *logProb);
// The same, skipping the ids in `excluded` (sorted, unique, each in [0, n)) as if they were -inf,
// while `norm` still counts them: the argmax of a written row in which a processor set those ids
// to -inf after the log-softmax (suppressed tokens), without writing the row or editing x.
std::int32_t bestOfRow(const float *x, std::int64_t n, RowNormalizer norm, float *logProb,
                       std::span<const std::int32_t> excluded);

} // namespace glosa::engine::ops
