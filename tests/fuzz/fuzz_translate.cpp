// DocumentTranslator on arbitrary documents: the reader, the translation by a real shipped model,
// render() of the translated document, and reading that output again. The first byte picks the
// format (txt, md, html, srt, or the XML layer of a .docx or .odt inside a valid archive); the
// rest is the file.
//
// The model is rnn-additive-en-es, the smallest shipped translator with attention (5.7 MB; the
// smallest, rnn-noattention-en-es, has no attention, so every segment's markup would take the
// no-alignment path and the span projection would go unfuzzed). What goes wrong after reading
// goes wrong with a model's real output: its placeholders restored or dropped, its alignment
// placing inline markup, its translation longer or shorter than the source, which stand-ins
// would not reproduce. Greedy search, at most 32 target pieces a sentence and at most 256 bytes of
// text a document (kMaxTextBytes) keep an input under a few seconds with ASan (scripts/fuzz gives
// this harness inputs up to 4 KiB); the cost of long inputs is what the reader harnesses fuzz at
// 256 KiB.
//
// The properties: nothing but a DocumentError from reading; translate() translates every
// segment; render() gives a document of the same format that reads back (a translated .docx
// that Word could not open is what this looks for); the time limit (-timeout) catches a path
// that is quadratic in the spans or links of a segment.
#include "app/core/documents/document.h"
#include "app/core/documents/documenttranslator.h"
#include "app/core/documents/formats.h"
#include "app/core/models/modelcatalog.h"
#include "app/core/models/pluginregistry.h"
#include "engine/translation/translationmodel.h"
#include "engine/translation/translator.h"
#include "tests/fuzz/fuzzutil.h"

#include <array>
#include <memory>

namespace {

using namespace glosa;

engine::Translator &translator()
{
    // Both live as long as the process (the model's code is in the plugin), reachable from here.
    static PluginRegistry *plugins = [] {
        auto *registry = new PluginRegistry;
        registry->scan({QStringLiteral(GLOSA_PLUGIN_DIR)});
        return registry;
    }();
    static engine::Translator *instance = [] {
        const ModelInfo info =
            ModelCatalog::readPackage(QStringLiteral(GLOSA_MODELS_DIR "/rnn-additive-en-es"));
        QString error;
        auto model = std::dynamic_pointer_cast<engine::TranslationModel>(
            ModelCatalog::load(info, *plugins, &error));
        if (!model)
            fuzz::finding("cannot load rnn-additive-en-es: " + error.toStdString());
        return new engine::Translator(model);
    }();
    return *instance;
}

// Text a document may hold to be translated here (the segments' bytes in all).
constexpr qsizetype kMaxTextBytes = 256;

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    using namespace glosa::documents;
    fuzz::ensureApp();
    if (size == 0)
        return 0;
    static const std::array<const char *, 6> kFormats{"txt", "md", "html", "srt", "docx", "odt"};
    const std::size_t choice = data[0] % kFormats.size();
    const QString format = QString::fromLatin1(kFormats[choice]);
    QByteArray bytes(reinterpret_cast<const char *>(data + 1), qsizetype(size - 1));
    if (format == QLatin1String("docx"))
        bytes = fuzz::archiveWithMember(format, QStringLiteral("word/document.xml"), bytes);
    else if (format == QLatin1String("odt"))
        bytes = fuzz::archiveWithMember(format, QStringLiteral("content.xml"), bytes);
    engine::Translator &model = translator();
    Document doc;
    try {
        doc = parseDocument(bytes, format, QStringLiteral("fuzz.") + format);
    } catch (const DocumentError &) {
        return 0;
    }
    // The model's time, bounded: the engine's own loops (the RNN's attention) are instrumented
    // and run about ten times slower under ASan, where a 1.8 KB document of 8 long sentences
    // took 8 s against 0.7 s in Release, and 470 bytes of XML read as Markdown 2.4 s. Documents with more text are read by the reader
    // harnesses; this one is about what happens to a translation.
    qsizetype textBytes = 0;
    for (const Segment &segment : doc.segments)
        textBytes += segment.text.size();
    if (textBytes > kMaxTextBytes)
        return 0;
    static const engine::DecodingOptions options = [&model] {
        engine::DecodingOptions o = model.model().defaultDecodingOptions();
        o.beamSize = 1;
        o.maxLength = 32;
        return o;
    }();
    DocumentTranslator documents(model);
    if (!documents.translate(doc, options))
        fuzz::finding("translate() stopped without a cancel");
    for (std::size_t i = 0; i < doc.segments.size(); ++i)
        if (!doc.segments[i].translation) // none has a 32 KiB run that is kept as it is
            fuzz::finding("segment " + std::to_string(i) + " has no translation");
    const QByteArray out = doc.render();
    try {
        (void)parseDocument(out, format, QStringLiteral("translated.") + format);
    } catch (const DocumentError &error) {
        fuzz::finding("the translated document cannot be read back: " +
                      error.message().toStdString());
    }
    return 0;
}
