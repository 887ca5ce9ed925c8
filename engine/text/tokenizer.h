// Tokenizer: a SentencePiece model that reports, for every piece, where it came from in the
// caller's original text.
//
// Basic usage:
//     glosa::engine::Tokenizer tokenizer("pkg/spm.model");      // throws PackageError
//     std::vector<Token> tokens = tokenizer.encode(text);         // ids, pieces, ranges
//     std::string back = tokenizer.decode({tokens[0].id, ...});
//
// Offsets. encode() first validates UTF-8 and normalises the text to NFC (ICU), then lets
// SentencePiece apply the model's own normaliser (nmt_nfkc for our models) and read the surface
// offsets of each piece. Those offsets refer to the NFC string; NormalizedText maps them back to
// the caller's string, widening to whole characters where NFC rewrote them (a decomposed "e" +
// U+0301 maps to both code points). So token.bytes always indexes the string passed to encode(),
// and token.utf16 indexes the same text held in a QString (QString::fromUtf8 of it).
//
// White space. SentencePiece folds the space before a word into the piece ("▁word"); the ranges
// here exclude white space, so a highlight covers only the word's letters. A piece that is only
// "▁" gets an empty range at the end of the white space it stands for.
//
// Vocabulary files. A MarianMT model (OPUS-MT) numbers its pieces in its own vocab.json, not as
// the SentencePiece model does: the second constructor splits with the SentencePiece model and
// maps every piece through the vocabulary (a piece it lacks becomes <unk>), and decode() maps ids
// back to pieces before SentencePiece joins them, as Hugging Face's MarianTokenizer does. Then
// vocabSize(), pieceToId() and idToPiece() are the vocabulary's, the special ids are those of
// "</s>", "<unk>" and "<pad>" in it, and there is no BOS. A ">>xxx<<" target-language code at the
// start of the text (multi-target models: opus-mt-en-ROMANCE, the tc-big group models) is one
// token, the vocabulary's entry (else <unk>), as MarianTokenizer keeps it; SentencePiece splits
// the rest.
//
// Thread safety: encode/decode are const and may run concurrently.
#pragma once

#include "engine/text/unicode.h"

#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace sentencepiece {
class SentencePieceProcessor;
}

namespace glosa::engine {

struct Token
{
    int id = 0;
    // The vocabulary entry, "▁" marking a preceding space; for unknown pieces (id == unkId())
    // SentencePiece gives the (normalised) text it could not match instead of "<unk>".
    std::string piece;
    TextSpan bytes; // UTF-8 byte offsets in the original text
    TextSpan chars; // code point offsets in the original text
    TextSpan utf16; // UTF-16 code unit offsets (QString positions) in the original text
};

class Tokenizer
{
public:
    // Loads a SentencePiece model file; PackageError naming the file when it is missing or not a
    // SentencePiece model.
    explicit Tokenizer(const std::string &modelPath);
    // A SentencePiece model whose pieces are numbered by `vocabularyPath`, a JSON object
    // {"piece": id, ...} whose ids are 0 .. n-1, each once, with "</s>" and "<unk>" among the
    // pieces (see above). PackageError naming the file for anything else.
    Tokenizer(const std::string &modelPath, const std::string &vocabularyPath);
    ~Tokenizer();
    Tokenizer(const Tokenizer &) = delete;
    Tokenizer &operator=(const Tokenizer &) = delete;

    const std::string &path() const { return m_path; }
    int vocabSize() const;
    // -1 where the model defines no such piece.
    int padId() const;
    int unkId() const;
    int bosId() const;
    int eosId() const;
    // unkId() for pieces not in the vocabulary.
    int pieceToId(const std::string &piece) const;
    // Throws std::out_of_range outside [0, vocabSize()).
    std::string idToPiece(int id) const;

    // Pieces of `text` without BOS/EOS; throws InvalidUtf8Error (byte offset in the message).
    std::vector<Token> encode(std::string_view text) const;
    std::vector<int> encodeIds(std::string_view text) const;
    // Text for `ids` (control ids such as BOS/EOS/PAD decode to nothing; unknown pieces to
    // " ⁇ "). Throws std::invalid_argument for ids outside [0, vocabSize()).
    std::string decode(const std::vector<int> &ids) const;

    // The vocabulary file ("" without one).
    const std::string &vocabularyPath() const { return m_vocabularyPath; }

private:
    int mapPiece(const std::string &piece) const; // through the vocabulary, else <unk>
    std::vector<Token> encodePieces(std::string_view text) const; // SentencePiece's pieces

    std::string m_path;
    std::unique_ptr<sentencepiece::SentencePieceProcessor> m_processor;
    std::string m_vocabularyPath;
    std::vector<std::string> m_pieces;          // id -> piece (vocabulary only)
    std::unordered_map<std::string, int> m_ids; // piece -> id
    int m_unk = -1, m_eos = -1, m_pad = -1;
};

// The length in bytes of a ">>xxx<<" language code (MarianTokenizer's target-language token: the
// code of letters, digits, '_' and '-', at most 32) at the very start of `text`; 0 when there is
// none.
std::size_t languageCodeLength(std::string_view text);

// A hypothesis as people read it: `ids` decoded by `tokenizer` (decode()) with the protected
// spans put back (restoreSpans, protectedspans.h: placeholder k is spans[k]; none for a model
// without placeholders), and each piece located in that text. The one detokeniser with ranges:
// the Translator and the app's caption results use it, so a piece's range is where its text is.
struct Detokenized
{
    std::string text;
    // One per id: its piece and the range (bytes, code points, UTF-16 of `text`) of what decoding
    // it added, trimmed of white space. A piece that adds only a space and a control piece
    // ("</s>") have an empty range; a placeholder covers its span; of the byte pieces that spell
    // one character ("<0xE6>" "<0xB1>" "<0x89>": "汉"), the last covers it, the others are empty.
    std::vector<Token> tokens;
};
Detokenized detokenize(const Tokenizer &tokenizer, const std::vector<int> &ids,
                       const std::vector<std::string> &spans = {});

} // namespace glosa::engine
