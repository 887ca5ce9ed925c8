// A 422-word sentence (tests/data/long-sentence/en.txt, one full stop, clauses joined by commas
// and semicolons) through each bundled general-domain model (the ones trained with placeholders,
// whose packages set max_source_length) with its default decoding: it is translated in full,
// never truncated silently. The Translator cuts it into chunks of at most
// max_source_length pieces, after a clause mark where it can; every chunk's translation must end
// with the model's own end of sentence (not the length limit), the chunks must cover the whole
// input, the output must be about as long as the input, and it must not loop (a model given more
// than it was trained on repeats itself: the 256-piece chunks did, in their last quarter).
#include "engine/runtime.h"
#include "engine/translation/translationmodel.h"
#include "engine/translation/translator.h"

#include "tests/support/testplugins.h"
#include "tests/support/testutil.h"

#include <QFile>
#include <QtTest>

#include <set>

using namespace glosa::engine;

class TestLongSentence : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase() { runtime::setNumThreads(1); }

    void translatedInFull()
    {
        QString error;
        const auto models = glosa::test::bundledPlaceholderModels(&error);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        // The default en→es model is one of them; a bundle without any would test nothing.
        QVERIFY(!models.empty());
        for (const auto &[id, language, model] : models) {
            QFile file(glosa::test::testDataDir() + "/long-sentence/" + language + ".txt");
            QVERIFY2(file.open(QIODevice::ReadOnly), qPrintable(file.fileName()));
            const QString input = QString::fromUtf8(file.readAll()).trimmed();
            const std::string text = input.toStdString();
            const qsizetype inputWords = input.split(' ', Qt::SkipEmptyParts).size();
            QVERIFY(inputWords >= 400);

            Translator translator(model);
            const TranslationResult result =
                translator.translate(text, model->defaultDecodingOptions());
            QVERIFY(result.segments.size() >= 2);
            std::size_t covered = 0;
            for (const TranslatedSegment &segment : result.segments) {
                QVERIFY(segment.sourceTokens.size() <=
                        std::size_t(model->maxSourceLength()));
                for (std::size_t i = covered; i < segment.source.begin; ++i)
                    QVERIFY2(text[i] == ' ', "a part of the sentence was not translated");
                covered = segment.source.end;
                QVERIFY(!segment.hypotheses.empty());
                QVERIFY2(segment.hypotheses.front().endedWithEos,
                         qPrintable(id + ": a chunk stopped at the length limit"));
            }
            QCOMPARE(covered, text.size());

            const QStringList words =
                QString::fromStdString(result.text).split(' ', Qt::SkipEmptyParts);
            std::set<QString> trigrams;
            for (qsizetype i = 0; i + 2 < words.size(); ++i)
                trigrams.insert(words.mid(i, 3).join(' '));
            const double distinct = double(trigrams.size()) / double(words.size() - 2);
            qInfo("%s: %lld words in, %lld out, %zu chunks, %.3f of the word trigrams distinct",
                  qPrintable(id), static_cast<long long>(inputWords),
                  static_cast<long long>(words.size()), result.segments.size(), distinct);
            QVERIFY2(words.size() * 10 >= inputWords * 8, qPrintable(id + ": output too short"));
            QVERIFY2(distinct >= 0.95, qPrintable(id + ": the output repeats itself"));
        }
    }
};

QTEST_GUILESS_MAIN(TestLongSentence)
#include "tst_longsentence.moc"
