// The step-decoder contract: what a model family implements so that every search strategy
// (engine/decoding/search.h) can drive it. Modelled on Marian's Scorer (startState / step) and
// CTranslate2's decoder layer (operator()(step, ids, DecoderState&, logits, attention)).
//
// A search starts from an encoded DecoderState, whoever encoded it: a TextStepDecoder encodes
// token ids itself, a captioner's ImageEncoder (engine/captioning/imageencoder.h) encodes images.
//
// Basic usage (what the searches do):
//     std::unique_ptr<DecoderState> state = decoder.encode({{12, 7, 2}, {5, 2}}); // 2 rows
//     state->sourceLength(1);                   // 2: row 1 attends over two positions
//     state->reorder({0, 0, 0, 1, 1, 1});        // beam 3: three rows per sentence
//     Tensor last = Tensor::fromInts({6}, {bos, bos, bos, bos, bos, bos});
//     Tensor logProbs, attention;
//     decoder.step(*state, last, logProbs, attention); // [6, vocab], [6, 3]
//     state->reorder({0, 0, 2, 3, 5, 4});       // keep the rows the search chose (beam origins)
//
// This contract sits in layers/, below both the model families that implement it and the
// searches (engine/decoding) that drive it, as CTranslate2's layers/decoder.h does.
//
// Rows ("hypotheses") are the unit everywhere: a state holds one row per live hypothesis, and the
// search keeps track of which sentence each row belongs to. A model never needs to know the
// strategy: greedy, beam and sampling only differ in the origins they pass to reorder().
#pragma once

#include "engine/tensor.h"

#include <cstdint>
#include <functional>
#include <limits>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

namespace glosa::engine {

// The model's per-row decoder memory (RNN hidden state, Transformer key/value cache, the encoder
// output each row attends to, the row's step counter...). Opaque to the search.
class DecoderState
{
public:
    virtual ~DecoderState();

    // Number of rows (live hypotheses) the state holds now.
    virtual std::int64_t rows() const = 0;

    // How many source positions row `row` attends over: its sentence's length, or a captioner's
    // grid cells. Its attention columns past that are zeros; maxLengthRatio and the coverage
    // penalty measure it. The search reads it instead of the source, which it never sees.
    virtual std::int64_t sourceLength(std::int64_t row) const = 0;
    // Identifies row `row`'s input for the sampling generators (with DecodingOptions::seed and
    // the sample index), so that an input draws the same whatever else is in its batch: tokenKey()
    // of the source ids for text; for images, imageencoder.h says.
    virtual std::uint64_t sourceKey(std::int64_t row) const = 0;

    // Row i of the new state is row origins[i] of the current one. Rows may be repeated (beam
    // expansion, n-best samples) or left out (finished hypotheses and sentences); origins may be
    // empty. Throws std::out_of_range for an origin outside [0, rows()).
    virtual void reorder(const std::vector<std::int32_t> &origins) = 0;
    // The most steps the search may take from here (its longest maxLength), told once before
    // the first step: a state may size what grows with the steps once instead of growing it
    // (a Transformer's key/value caches). A hint only; the default ignores it.
    virtual void expectSteps(std::int64_t steps) { (void)steps; }
};

// For DecoderState::reorder() implementations: throws std::out_of_range, naming `decoder`, for an
// origin outside [0, rows), and says whether `origins` is the identity (nothing to move: greedy
// search with every row alive).
bool checkOrigins(const std::vector<std::int32_t> &origins, std::int64_t rows, const char *decoder);
// values[i] = values[origins[i]]: the per-row bookkeeping (which sentence or image a row is for).
void reorderRows(std::vector<std::int32_t> &values, const std::vector<std::int32_t> &origins);
// FNV-1a over the ids' little-endian bytes: DecoderState::sourceKey() of a text source.
std::uint64_t tokenKey(const std::vector<std::int32_t> &ids);

// A decoder's own state type behind the DecoderState a search hands back to advance(); throws
// std::invalid_argument naming `decoder` when the state came from another model.
template <class State>
State &stateOf(DecoderState &state, const char *decoder)
{
    if (auto *own = dynamic_cast<State *>(&state))
        return *own;
    throw std::invalid_argument(std::string(decoder) +
                                ": the state was not created by this model's encoder");
}

class AlignmentSource;
class AttentionInspector;

class StepDecoder
{
public:
    virtual ~StepDecoder();

    // Size of the target vocabulary: the width of the log-probability rows.
    virtual std::int64_t vocabularySize() const = 0;
    // Token fed to the first step (BOS, or EOS / a language tag for models trained that way).
    virtual std::int32_t startToken() const = 0;
    // Token that ends a hypothesis.
    virtual std::int32_t endToken() const = 0;
    // Most target tokens a row can hold (a Transformer's max_positions); searches never ask for
    // more, whatever DecodingOptions::maxLength says. No limit unless a model has one.
    virtual std::int64_t maxTargetLength() const
    {
        return std::numeric_limits<std::int64_t>::max();
    }
    // The choice of which layer and head step() returns as attention (alignmentsource.h), for
    // decoders with more than one; null (the default) for those with one attention.
    virtual AlignmentSource *alignmentSource() { return nullptr; }

    // Advances every row by one token.
    //   lastTokens: [rows] I32, the last token of each row (startToken() at the first step)
    //   logProbs:   [rows, vocab] F32, log-softmax of the next-token distribution (resized here)
    //   attention:  [rows, maxSourceLength] F32, the weights over source positions used to predict
    //               this token; zeros past the row's sourceLength(); each row sums to 1 over its
    //               source. maxSourceLength is the largest sourceLength() of the encoded state. A
    //               model without attention leaves it empty (Tensor()).
    // Throws std::invalid_argument when lastTokens is not I32 [state.rows()] or holds an id
    // outside [0, vocabularySize()). Those checks are made here, once for every model family
    // (as Marian's scorers and CTranslate2's decoders leave them to the caller's side), and then
    // advance() runs; a family checks only what is its own (a Transformer's max_positions).
    void step(DecoderState &state, const Tensor &lastTokens, Tensor &logProbs, Tensor &attention);

    // Whether stepLogits() is available: greedy and beam search (no sampling, no traces) then
    // call it instead of step() and compute a row's log-probabilities only where something reads
    // them (greedy: the argmax; beam: the candidates that can still enter its heap).
    virtual bool hasStepLogits() const { return false; }
    // Advances every row by one token like step(), but returns the distribution unnormalised:
    //   logits:      [rows, vocab] F32; step()'s logProbs[r, j] is, bit for bit,
    //                (logits[r, j] - normalizers[r, 0]) - normalizers[r, 1]
    //                (ops/rowsoftmax.h: logSoftmaxRow, bestOfRow), ids the model never
    //                generates already -inf
    //   normalizers: [rows, 2] F32, each row's max logit and log Σ exp(logit - max)
    //   attention:   as step()'s
    //   rowReady:    when given, called once per row as soon as that row of logits and its
    //                normaliser are final, while the row is still in cache (a search reading
    //                each row once, as greedy's argmax does, then need not bring [rows, vocab]
    //                back from memory); from OpenMP threads, several rows at once.
    // Throws std::logic_error where !hasStepLogits(), and what step() throws.
    using RowReady = std::function<void(std::int64_t row)>;
    void stepLogits(DecoderState &state, const Tensor &lastTokens, Tensor &logits,
                    Tensor &normalizers, Tensor &attention, const RowReady *rowReady = nullptr);

protected:
    // step() after its checks: lastTokens is I32 [state.rows()] with every id in range; rows()
    // may be 0 (resize the outputs and return).
    virtual void advance(DecoderState &state, const Tensor &lastTokens, Tensor &logProbs,
                         Tensor &attention) = 0;
    // stepLogits() after the same checks; overridden with hasStepLogits().
    virtual void advanceLogits(DecoderState &state, const Tensor &lastTokens, Tensor &logits,
                               Tensor &normalizers, Tensor &attention, const RowReady *rowReady);

private:
    void checkStep(const DecoderState &state, const Tensor &lastTokens) const;
};

// A step decoder with its own encoder over source token ids: the translation families.
class TextStepDecoder : public StepDecoder
{
public:
    ~TextStepDecoder() override;

    // Encodes a batch of source sentences once. sources[b] holds the ids exactly as the model
    // wants them (the caller appends EOS when the model was trained with it); lengths may differ;
    // no sentence may be empty. Returns a state with one row per sentence, in order: row b belongs
    // to sources[b], with sourceLength(b) == sources[b].size() and sourceKey(b) ==
    // tokenKey(sources[b]). Column j of a row's attention is position j of that row's sentence.
    virtual std::unique_ptr<DecoderState>
    encode(const std::vector<std::vector<std::int32_t>> &sources) = 0;
    // Every attention of one translation, layer by layer and head by head
    // (attentioninspector.h), for decoders that can show more than step()'s alignment; null (the
    // default) for those that cannot.
    virtual AttentionInspector *attentionInspector() { return nullptr; }
};

} // namespace glosa::engine
