// runTranslation (app/core/inference/translationrunner.h) on a real model, n-best as the views
// show it (TranslateView's n-best list, the Compare view, the history): every hypothesis's text is
// the engine's own detokenised segments (engine::TranslatedSegment::texts, protected spans put
// back) joined with the input's white space, and each token's UTF-16 range in that text holds
// what its piece spells. The alternatives used to be detokenised a second time from their pieces
// in the runner, which showed a protected span (URL, number) as its placeholder character
// (U+E000 + k) instead of the span.
#include "app/core/inference/translationrunner.h"
#include "engine/text/protectedspans.h"
#include "engine/translation/translationmodel.h"
#include "engine/translation/translator.h"
#include "tests/support/testplugins.h"
#include "tests/support/testutil.h"

#include <QtTest>

#include <algorithm>
#include <optional>

using namespace glosa;

namespace {

// The bundled general en→es Transformer: trained with placeholders, so spans reach its output as
// placeholder pieces.
std::shared_ptr<engine::TranslationModel> generalModel(QString *error)
{
    static QString loadError;
    static const auto model = test::loadWithBuiltPlugin<engine::TranslationModel>(
        QStringLiteral("transformer"),
        GLOSA_SOURCE_DIR "/resources/models/transformer-general-en-es", &loadError);
    *error = loadError;
    return model;
}

// What a piece spells in the text, from the piece alone: "▁" is a space, a placeholder is the
// span it stands for. Null for pieces whose text depends on their neighbours (byte pieces) or is
// not the piece (control and unknown pieces).
std::optional<QString> spelled(const std::string &piece, const std::vector<std::string> &spans)
{
    if (const int k = engine::placeholderIndex(piece); k >= 0)
        return k < int(spans.size()) ? std::optional(QString::fromStdString(spans[k]))
                                     : std::nullopt;
    const QString text = QString::fromStdString(piece);
    if (text.startsWith(QLatin1Char('<')) && text.endsWith(QLatin1Char('>')))
        return std::nullopt;
    return QString(text).replace(QChar(0x2581), QLatin1Char(' ')).trimmed();
}

bool hasPrivateUse(const QString &text)
{
    return std::any_of(text.begin(), text.end(),
                       [](QChar c) { return c.unicode() >= 0xe000 && c.unicode() <= 0xf8ff; });
}

} // namespace

class TestTranslationRunner : public QObject
{
    Q_OBJECT
private slots:
    void alternativesAreTheEnginesTexts_data()
    {
        QTest::addColumn<QString>("text");
        QTest::newRow("url and number")
            << QStringLiteral("The report is at https://example.com/report-2024.pdf and costs "
                              "1,250 euros.");
        QTest::newRow("sentences, numbers, white space")
            << QStringLiteral("  Call me at 10:30 tomorrow.   Prices rose by 3.5% in 2023.\n\n"
                              "See www.example.org for the 12 rules. ");
        QTest::newRow("no spans") << QStringLiteral("The old man walked slowly to the station.");
    }
    void alternativesAreTheEnginesTexts()
    {
        QFETCH(QString, text);
        QString error;
        const auto model = generalModel(&error);
        QVERIFY2(model, qPrintable(error));
        engine::DecodingOptions options = model->defaultDecodingOptions();
        options.strategy = engine::SearchStrategy::Beam;
        options.beamSize = 4;
        options.nBest = 4;
        const TranslationResult result = runTranslation(model, text, options);

        // The reference: the engine's segments, hypothesis k of each (its last where it has
        // fewer), between the input's white space.
        engine::Translator translator(model);
        const std::string input = text.toStdString();
        const engine::TranslationResult engine = translator.translate(input, options);
        QCOMPARE(result.hypotheses.size(), 4);
        int placeholders = 0; // alternatives that hold a span the model copied as a placeholder
        for (int k = 0; k < result.hypotheses.size(); ++k) {
            const TranslationHypothesis &h = result.hypotheses[k];
            QString expected;
            std::size_t copied = 0;
            qsizetype token = 0;
            for (const engine::TranslatedSegment &segment : engine.segments) {
                const std::size_t j = std::min<std::size_t>(k, segment.hypotheses.size() - 1);
                expected += QString::fromStdString(input.substr(copied, segment.source.begin - copied));
                copied = segment.source.end;
                const qsizetype segmentStart = expected.size();
                expected += QString::fromStdString(segment.texts[j]);
                const std::vector<std::int32_t> &ids = segment.hypotheses[j].tokens;
                for (std::size_t i = 0; i < ids.size(); ++i, ++token) {
                    QVERIFY(token < h.tokens.size());
                    const TokenSpan &span = h.tokens[token];
                    QCOMPARE(span.id, ids[i]);
                    QVERIFY2(span.begin >= segmentStart && span.begin <= span.end &&
                                 span.end <= expected.size(),
                             qPrintable(QStringLiteral("hypothesis %1, token %2: [%3, %4)")
                                            .arg(k)
                                            .arg(token)
                                            .arg(span.begin)
                                            .arg(span.end)));
                    const std::string piece = span.piece.toStdString();
                    if (k > 0 && engine::placeholderIndex(piece) >= 0)
                        ++placeholders;
                    // A truecased segment's first letter was capitalised again (same place).
                    const auto cased = [&](const QString &t) {
                        return segment.truecased ? t.toLower() : t;
                    };
                    if (const auto shown = spelled(piece, segment.protectedSpans))
                        QCOMPARE(cased(h.text.mid(span.begin, span.end - span.begin)),
                                 cased(*shown));
                }
            }
            expected += QString::fromStdString(input.substr(copied));
            QCOMPARE(token, h.tokens.size());
            QCOMPARE(h.text, expected);
            QVERIFY2(!hasPrivateUse(h.text), qPrintable(h.text));
        }
        qInfo("placeholder pieces in the alternatives: %d", placeholders);
        if (QTest::currentDataTag() != QLatin1String("no spans"))
            QVERIFY(placeholders > 0); // else this row tests no span in an alternative
    }
};

QTEST_GUILESS_MAIN(TestTranslationRunner)
#include "tst_translationrunner.moc"
