#include "engine/decoding/coverage.h"

#include <unicode/uchar.h>
#include <unicode/utf8.h>

#include <cmath>
#include <stdexcept>
#include <string>

namespace glosa::engine {

namespace {

// Has a letter or a digit: the pieces that make up words. Read from the text, not the piece, so
// that a placeholder (a protected number or URL) counts by what it stands for.
bool hasLetterOrDigit(std::string_view text)
{
    for (std::size_t i = 0; i < text.size();) {
        UChar32 c = 0;
        U8_NEXT(text.data(), i, text.size(), c);
        if (c >= 0 && u_isalnum(c))
            return true;
    }
    return false;
}

bool hasWhiteSpace(std::string_view text)
{
    for (std::size_t i = 0; i < text.size();) {
        UChar32 c = 0;
        U8_NEXT(text.data(), i, text.size(), c);
        if (c >= 0 && u_isUWhiteSpace(c))
            return true;
    }
    return false;
}

bool startsWord(const std::string &piece)
{
    return piece.rfind("\u2581", 0) == 0;
}

} // namespace

std::size_t Coverage::flaggedCount() const
{
    std::size_t count = 0;
    for (const CoveredWord &word : words)
        count += word.flagged ? 1 : 0;
    return count;
}

Coverage computeCoverage(const Tensor &attention, const std::vector<Token> &sourceTokens,
                         std::string_view text, const CoverageOptions &options)
{
    if (!std::isfinite(options.threshold) || options.threshold < 0.0f)
        throw std::invalid_argument("coverage threshold " + std::to_string(options.threshold) +
                                    " is not a number >= 0");
    Coverage coverage;
    coverage.threshold = options.threshold;
    if (attention.empty())
        return coverage;
    if (attention.rank() != 2 || attention.dtype() != DType::F32 ||
        attention.dim(1) != static_cast<std::int64_t>(sourceTokens.size()))
        throw std::invalid_argument(
            "coverage: attention of rank " + std::to_string(attention.rank()) + " with " +
            std::to_string(attention.rank() == 2 ? attention.dim(1) : -1) + " columns for " +
            std::to_string(sourceTokens.size()) + " source tokens (want [target, source] F32)");
    coverage.available = true;

    // [T, S] → [S]: the total attention each source token received.
    const std::int64_t rows = attention.dim(0), columns = attention.dim(1);
    const float *weights = attention.data<float>();
    coverage.tokenMass.assign(static_cast<std::size_t>(columns), 0.0f);
    for (std::int64_t i = 0; i < rows; ++i)
        for (std::int64_t j = 0; j < columns; ++j)
            coverage.tokenMass[j] += weights[i * columns + j];

    std::size_t previousEnd = 0; // end of the last piece that belonged to a word
    for (std::size_t j = 0; j < sourceTokens.size(); ++j) {
        const Token &token = sourceTokens[j];
        if (token.bytes.begin > token.bytes.end || token.bytes.end > text.size())
            throw std::invalid_argument(
                "coverage: source token " + std::to_string(j) + " spans bytes [" +
                std::to_string(token.bytes.begin) + ", " + std::to_string(token.bytes.end) +
                ") outside a text of " + std::to_string(text.size()) + " bytes");
        if (!hasLetterOrDigit(text.substr(token.bytes.begin, token.bytes.size())))
            continue; // punctuation, symbols, EOS
        const bool continues =
            !coverage.words.empty() && !startsWord(token.piece) &&
            previousEnd <= token.bytes.begin &&
            !hasWhiteSpace(text.substr(previousEnd, token.bytes.begin - previousEnd));
        if (!continues)
            coverage.words.push_back({j, j, {token.bytes.begin, token.bytes.end}, 0.0f, false});
        CoveredWord &word = coverage.words.back();
        word.endToken = j + 1;
        word.bytes.end = token.bytes.end;
        word.mass += coverage.tokenMass[j];
        previousEnd = token.bytes.end;
    }
    for (CoveredWord &word : coverage.words)
        word.flagged = word.mass < options.threshold;
    return coverage;
}

} // namespace glosa::engine
