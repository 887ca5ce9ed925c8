#include "engine/text/tokenizer.h"

#include "engine/jsonfile.h"
#include "engine/limits.h"
#include "engine/packageerror.h"
#include "engine/regularfile.h"
#include "engine/text/protectedspans.h"

#include <sentencepiece_processor.h>

#include <algorithm>
#include <cctype>

namespace glosa::engine {

namespace {

// SentencePiece returns a piece it does not know (a vocabulary piece of the other language, in a
// joint vocabulary) as it is, "▁" and all; MarianTokenizer.convert_tokens_to_string turns every
// "▁" into a space and strips the ends, and so does this.
std::string withoutWordStartMarks(std::string text)
{
    static const std::string mark = "\xe2\x96\x81";
    for (std::size_t at = text.find(mark); at != std::string::npos; at = text.find(mark, at))
        text.replace(at, mark.size(), " ");
    const std::size_t first = text.find_first_not_of(' ');
    if (first == std::string::npos)
        return {};
    return text.substr(first, text.find_last_not_of(' ') - first + 1);
}

} // namespace

Tokenizer::Tokenizer(const std::string &modelPath)
    : m_path(modelPath), m_processor(std::make_unique<sentencepiece::SentencePieceProcessor>())
{
    // Read here rather than by SentencePiece's Load(path): a FIFO must not block the open.
    RegularFile file(modelPath);
    std::string model;
    if (!file.readAll(model, static_cast<std::uint64_t>(limits::kMaxTokenizerModelBytes)))
        throw PackageError(modelPath, {}, "cannot load the SentencePiece model: " + file.error());
    const auto status = m_processor->LoadFromSerializedProto(model);
    if (!status.ok())
        throw PackageError(modelPath, {},
                           "cannot load the SentencePiece model: " + status.ToString());
    if (m_processor->GetPieceSize() <= 0)
        throw PackageError(modelPath, {}, "the SentencePiece model has an empty vocabulary");
}

Tokenizer::Tokenizer(const std::string &modelPath, const std::string &vocabularyPath)
    : Tokenizer(modelPath)
{
    // A vocabulary of the largest size allowed takes ~40 bytes a piece in JSON.
    JsonBounds bounds;
    bounds.maxTopLevel = limits::kMaxVocabulary;
    bounds.topLevelName = "pieces";
    const nlohmann::json vocabulary =
        readJsonFile(vocabularyPath, std::uint64_t(limits::kMaxVocabulary) * 256, bounds);
    auto fail = [&](const std::string &message) {
        throw PackageError(vocabularyPath, {}, message);
    };
    if (!vocabulary.is_object() || vocabulary.empty())
        fail("expected a non-empty JSON object {\"piece\": id, ...}");
    if (vocabulary.size() > static_cast<std::size_t>(limits::kMaxVocabulary))
        fail(std::to_string(vocabulary.size()) + " pieces is more than the limit of " +
             std::to_string(limits::kMaxVocabulary));
    const auto size = static_cast<std::int64_t>(vocabulary.size());
    m_pieces.assign(static_cast<std::size_t>(size), {});
    std::vector<bool> seen(static_cast<std::size_t>(size), false);
    for (const auto &[piece, id] : vocabulary.items()) {
        if (!id.is_number_integer() || id.get<std::int64_t>() < 0 || id.get<std::int64_t>() >= size)
            fail("the id of \"" + piece + "\" is " + id.dump() + ", expected an integer in [0, " +
                 std::to_string(size) + ")");
        const auto i = static_cast<std::size_t>(id.get<std::int64_t>());
        if (seen[i])
            fail("id " + std::to_string(i) + " is given to more than one piece");
        seen[i] = true;
        m_pieces[i] = piece;
        m_ids.emplace(piece, static_cast<int>(i));
    }
    const auto special = [&](const char *piece, bool required) {
        const auto it = m_ids.find(piece);
        if (it == m_ids.end() && required)
            fail(std::string("has no \"") + piece + "\" piece");
        return it == m_ids.end() ? -1 : it->second;
    };
    m_eos = special("</s>", true);
    m_unk = special("<unk>", true);
    m_pad = special("<pad>", false);
    m_vocabularyPath = vocabularyPath;
}

Tokenizer::~Tokenizer() = default;

int Tokenizer::vocabSize() const
{
    return m_pieces.empty() ? m_processor->GetPieceSize() : static_cast<int>(m_pieces.size());
}

int Tokenizer::padId() const
{
    return m_pieces.empty() ? m_processor->pad_id() : m_pad;
}

int Tokenizer::unkId() const
{
    return m_pieces.empty() ? m_processor->unk_id() : m_unk;
}

int Tokenizer::bosId() const
{
    return m_pieces.empty() ? m_processor->bos_id() : -1;
}

int Tokenizer::eosId() const
{
    return m_pieces.empty() ? m_processor->eos_id() : m_eos;
}

int Tokenizer::mapPiece(const std::string &piece) const
{
    const auto it = m_ids.find(piece);
    return it == m_ids.end() ? m_unk : it->second;
}

int Tokenizer::pieceToId(const std::string &piece) const
{
    return m_pieces.empty() ? m_processor->PieceToId(piece) : mapPiece(piece);
}

std::string Tokenizer::idToPiece(int id) const
{
    if (id < 0 || id >= vocabSize())
        throw std::out_of_range("token id " + std::to_string(id) + " outside the vocabulary of " +
                                std::to_string(vocabSize()) + " pieces (" + m_path + ")");
    return m_pieces.empty() ? m_processor->IdToPiece(id) : m_pieces[static_cast<std::size_t>(id)];
}

std::size_t languageCodeLength(std::string_view text)
{
    if (text.substr(0, 2) != ">>")
        return 0;
    std::size_t at = 2;
    while (
        at < text.size() && at < 2 + 32 &&
        (std::isalnum(static_cast<unsigned char>(text[at])) || text[at] == '_' || text[at] == '-'))
        ++at;
    return at > 2 && text.substr(at, 2) == "<<" ? at + 2 : 0;
}

std::vector<Token> Tokenizer::encode(std::string_view text) const
{
    const std::size_t code = m_pieces.empty() ? 0 : languageCodeLength(text);
    if (code == 0)
        return encodePieces(text);
    // MarianTokenizer: the code is a vocabulary entry, not SentencePiece's to split.
    validateUtf8(text, "input");
    Token token;
    token.piece = std::string(text.substr(0, code));
    token.id = mapPiece(token.piece);
    token.bytes = token.chars = token.utf16 = {0, code}; // ASCII
    std::vector<Token> tokens{std::move(token)};
    for (Token &piece : encodePieces(text.substr(code))) {
        for (TextSpan *span : {&piece.bytes, &piece.chars, &piece.utf16})
            *span = {span->begin + code, span->end + code};
        tokens.push_back(std::move(piece));
    }
    return tokens;
}

std::vector<Token> Tokenizer::encodePieces(std::string_view text) const
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
        token.id = m_pieces.empty() ? static_cast<int>(piece.id()) : mapPiece(piece.piece());
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
    if (!m_pieces.empty()) {
        for (const Token &token : encode(text))
            ids.push_back(token.id);
        return ids;
    }
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
    if (!m_pieces.empty()) {
        // Control pieces decode to nothing, <unk> to SentencePiece's own unknown surface.
        std::vector<std::string> pieces;
        for (int id : ids) {
            if (id == m_eos || id == m_pad)
                continue;
            pieces.push_back(id == m_unk ? m_processor->IdToPiece(m_processor->unk_id())
                                         : m_pieces[static_cast<std::size_t>(id)]);
        }
        const auto status = m_processor->Decode(pieces, &text);
        if (!status.ok())
            throw std::runtime_error("SentencePiece cannot decode (" + m_path +
                                     "): " + status.ToString());
        return withoutWordStartMarks(std::move(text));
    }
    const auto status = m_processor->Decode(ids, &text);
    if (!status.ok())
        throw std::runtime_error("SentencePiece cannot decode (" + m_path +
                                 "): " + status.ToString());
    return text;
}

Detokenized detokenize(const Tokenizer &tokenizer, const std::vector<int> &ids,
                       const std::vector<std::string> &spans)
{
    // The spans a hypothesis left out are appended to its text (restoreSpans' appendMissing), not
    // to any piece's range.
    Detokenized out{restoreSpans(tokenizer.decode(ids), spans, true), {}};
    const Utf8Offsets offsets(out.text);
    out.tokens.reserve(ids.size());
    // Decoding prefixes, not pieces one by one, keeps SentencePiece's own rules: no space at the
    // start, byte pieces joined into characters, a placeholder as its span. A prefix that stops
    // inside a character decodes its bytes as U+FFFD, so a piece ends where the prefix's text
    // stops agreeing with the whole text, moved back to a character boundary: the byte pieces
    // before the last one of a character get empty ranges and that last one the character.
    std::vector<int> prefix;
    std::size_t previous = 0;
    for (int id : ids) {
        prefix.push_back(id);
        const std::string decoded = restoreSpans(tokenizer.decode(prefix), spans, false);
        std::size_t end = static_cast<std::size_t>(
            std::mismatch(decoded.begin(), decoded.end(), out.text.begin(), out.text.end()).first -
            decoded.begin());
        while (end > 0 && end < out.text.size() &&
               (static_cast<unsigned char>(out.text[end]) & 0xc0) == 0x80)
            --end;
        Token token;
        token.id = id;
        token.piece = tokenizer.idToPiece(id);
        token.bytes = trimWhiteSpace(out.text, {std::min(previous, end), end});
        token.chars = offsets.codePoints(token.bytes);
        token.utf16 = offsets.utf16(token.bytes);
        out.tokens.push_back(std::move(token));
        previous = std::max(previous, end);
    }
    return out;
}

} // namespace glosa::engine
