#include "engine/layers/textstate.h"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace glosa::engine::layers {

TextState::TextState(const std::vector<std::vector<std::int32_t>> &sources,
                     std::int64_t vocabularySize, std::int64_t maxLength, const char *decoder)
    : m_decoder(decoder)
{
    const std::string where = std::string(decoder) + "::encode: ";
    for (std::size_t b = 0; b < sources.size(); ++b) {
        const auto n = static_cast<std::int64_t>(sources[b].size());
        if (n == 0)
            throw std::invalid_argument(where + "source " + std::to_string(b) + " is empty");
        if (n > maxLength)
            throw std::invalid_argument(where + "source " + std::to_string(b) + " has " +
                                        std::to_string(n) + " tokens, more than max_positions " +
                                        std::to_string(maxLength) + " (split the sentence)");
        for (std::int32_t id : sources[b])
            if (id < 0 || id >= vocabularySize)
                throw std::invalid_argument(where + "token id " + std::to_string(id) +
                                            " in source " + std::to_string(b) + " is outside [0, " +
                                            std::to_string(vocabularySize) + ")");
        lengths.push_back(n);
        sourceKeys.push_back(tokenKey(sources[b]));
        rowSentence.push_back(static_cast<std::int32_t>(b));
        maxSourceLength = std::max(maxSourceLength, n);
    }
}

std::int64_t TextState::sourceLength(std::int64_t row) const
{
    return lengths[rowSentence.at(row)];
}

std::uint64_t TextState::sourceKey(std::int64_t row) const
{
    return sourceKeys[rowSentence.at(row)];
}

void TextState::reorder(const std::vector<std::int32_t> &origins)
{
    if (checkOrigins(origins, rows(), m_decoder))
        return;
    reorderRows(rowSentence, origins);
    rowTensors.gather(origins);
}

} // namespace glosa::engine::layers
