// Sentence splitting and tokenization of arbitrary bytes, as the Translator does them: UTF-8
// validation first (InvalidUtf8Error is the documented refusal), then ICU sentences for the
// first byte's choice of language, then SentencePiece pieces located in the input.
#include "engine/text/sentencesplitter.h"
#include "engine/text/tokenizer.h"
#include "engine/text/unicode.h"
#include "tests/fuzz/fuzzutil.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    using namespace glosa::engine;
    static const Tokenizer tokenizer(GLOSA_TEST_DATA_DIR "/spm/spm.model");
    static const char *const languages[] = {"en", "es", "ja", "zh", "und", "", "xx", "pt-BR"};
    if (size == 0)
        return 0;
    static SentenceSplitter *splitters[8] = {};
    const std::size_t which = data[0] % 8;
    if (!splitters[which])
        splitters[which] = new SentenceSplitter(languages[which]);
    const std::string_view text(reinterpret_cast<const char *>(data) + 1, size - 1);
    try {
        validateUtf8(text, "fuzz");
    } catch (const InvalidUtf8Error &) {
        return 0;
    }
    std::size_t previous = 0;
    for (const TextSpan &sentence : splitters[which]->split(text)) {
        if (sentence.begin < previous || sentence.end > text.size() || sentence.begin > sentence.end)
            glosa::fuzz::finding("sentence spans out of order or outside the text");
        previous = sentence.end;
        for (const Token &token : tokenizer.encode(text.substr(sentence.begin, sentence.size())))
            if (token.bytes.begin > token.bytes.end || token.bytes.end > sentence.size())
                glosa::fuzz::finding("a token's byte range lies outside its sentence");
    }
    return 0;
}
