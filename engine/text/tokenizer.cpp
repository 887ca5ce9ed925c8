#include "engine/text/tokenizer.h"

#include "engine/packageerror.h"

#include <sentencepiece_processor.h>

#include <algorithm>

namespace glosa::engine {

Tokenizer::Tokenizer(const std::string &modelPath)
    : m_path(modelPath), m_processor(std::make_unique<sentencepiece::SentencePieceProcessor>())
{
    const auto status = m_processor->Load(modelPath);
    if (!status.ok())
        throw PackageError(modelPath, {},
                           "cannot load the SentencePiece model: " + status.ToString());
    if (m_processor->GetPieceSize() <= 0)
        throw PackageError(modelPath, {}, "the SentencePiece model has an empty vocabulary");
}

Tokenizer::~Tokenizer() = default;

int Tokenizer::vocabSize() const
{
    return m_processor->GetPieceSize();
}

int Tokenizer::padId() const
{
    return m_processor->pad_id();
}

int Tokenizer::unkId() const
{
    return m_processor->unk_id();
}

int Tokenizer::bosId() const
{
    return m_processor->bos_id();
}

int Tokenizer::eosId() const
{
    return m_processor->eos_id();
}

int Tokenizer::pieceToId(const std::string &piece) const
{
    return m_processor->PieceToId(piece);
}

std::string Tokenizer::idToPiece(int id) const
{
    if (id < 0 || id >= vocabSize())
        throw std::out_of_range("token id " + std::to_string(id) + " outside the vocabulary of " +
                                std::to_string(vocabSize()) + " pieces (" + m_path + ")");
    return m_processor->IdToPiece(id);
}

std::vector<Token> Tokenizer::encode(std::string_view text) const
{
    const NormalizedText normalized(text); // validates UTF-8
    const std::string &nfcText = normalized.text();
    const Utf8Offsets offsets(text);

    // The pieces with their surface offsets; the protobuf header is not installed, so the
    // immutable wrapper owns the message.
    sentencepiece::ImmutableSentencePieceText proto;
    const auto status = m_processor->Encode(nfcText, proto.mutable_proto());
    if (!status.ok())
        throw std::runtime_error("SentencePiece cannot encode the text (" + m_path +
                                 "): " + status.ToString());

    std::vector<Token> tokens;
    tokens.reserve(proto.pieces_size());
    std::size_t floor = 0; // keeps ranges monotonic whatever SentencePiece reports
    for (const auto &piece : proto.pieces()) {
        TextSpan span{std::clamp<std::size_t>(piece.begin(), floor, nfcText.size()),
                      std::clamp<std::size_t>(piece.end(), floor, nfcText.size())};
        span.end = std::max(span.end, span.begin);
        span = trimWhiteSpace(nfcText, span);
        Token token;
        token.id = static_cast<int>(piece.id());
        token.piece = piece.piece();
        token.bytes = normalized.toOriginal(span);
        token.chars = offsets.codePoints(token.bytes);
        token.utf16 = offsets.utf16(token.bytes);
        floor = span.begin;
        tokens.push_back(std::move(token));
    }
    return tokens;
}

std::vector<int> Tokenizer::encodeIds(std::string_view text) const
{
    const NormalizedText normalized(text);
    std::vector<int> ids;
    const auto status = m_processor->Encode(normalized.text(), &ids);
    if (!status.ok())
        throw std::runtime_error("SentencePiece cannot encode the text (" + m_path +
                                 "): " + status.ToString());
    return ids;
}

std::string Tokenizer::decode(const std::vector<int> &ids) const
{
    const int size = vocabSize();
    for (std::size_t i = 0; i < ids.size(); ++i)
        if (ids[i] < 0 || ids[i] >= size)
            throw std::invalid_argument("cannot decode token id " + std::to_string(ids[i]) +
                                        " at position " + std::to_string(i) +
                                        ": the vocabulary has " + std::to_string(size) +
                                        " pieces (" + m_path + ")");
    std::string text;
    const auto status = m_processor->Decode(ids, &text);
    if (!status.ok())
        throw std::runtime_error("SentencePiece cannot decode (" + m_path +
                                 "): " + status.ToString());
    return text;
}

} // namespace glosa::engine
