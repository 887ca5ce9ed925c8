// bench_languageguard: how often the language guard (checkSourceLanguage, LanguageGuess) is
// wrong, on the dev splits only (the profiles come from the bundled sample, a part of the test
// split), for its thresholds and a sweep around them:
//
//   build/tests/bench_languageguard [--data /work/shared/data]
//
// For an English → Spanish model (English expected) and a Spanish → English one (Spanish
// expected), over tatoeba-en-es/dev.tsv:
//   false alarm, short: a dev sentence in the expected language is said to be the other one
//   false alarm, mixed: a sentence in the expected language followed by a shorter one in the
//                       other (a quotation) is said to be the other one
//   false alarm, samples: a paragraph of the bundled samples (resources/samples, English)
//   miss, sentence:  a dev sentence in the other language is not caught
//   miss, paragraph: five dev sentences of the other language as one paragraph are not caught
//   German, French:  dev sentences of tatoeba-en-de / en-fr (languages without a profile) given
//                    to the English → Spanish model: how often they are called Spanish
// Prints one Markdown table, one row per threshold pair, the guard's own marked.
#include "app/core/inference/languageguess.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QTextStream>

#include <algorithm>
#include <cstdio>

using namespace glosa;

namespace {

// Column `column` of every line of a tab-separated file.
QStringList column(const QString &path, int column)
{
    QFile file(path);
    QStringList texts;
    if (!file.open(QIODevice::ReadOnly))
        return texts;
    while (!file.atEnd()) {
        const QStringList fields = QString::fromUtf8(file.readLine()).trimmed().split('\t');
        if (fields.size() > column && !fields[column].startsWith('#'))
            texts << fields[column];
    }
    return texts;
}

QStringList paragraphsOf(const QStringList &sentences, int size)
{
    QStringList paragraphs;
    for (qsizetype i = 0; i + size <= sentences.size(); i += size)
        paragraphs << sentences.mid(i, size).join(' ');
    return paragraphs;
}

// Percentage of `texts` for which `counts` holds.
template <typename F> double percent(const QStringList &texts, F counts)
{
    qsizetype n = 0;
    for (const QString &text : texts)
        n += counts(text) ? 1 : 0;
    return texts.isEmpty() ? 0.0 : 100.0 * double(n) / double(texts.size());
}

} // namespace

int main(int argc, char *argv[])
{
    QCoreApplication app(argc, argv);
    QString data = QStringLiteral(GLOSA_DATA_DEFAULT);
    const QStringList args = app.arguments();
    if (const qsizetype at = args.indexOf("--data"); at > 0 && at + 1 < args.size())
        data = args[at + 1];
    const QStringList en = column(data + "/tatoeba-en-es/dev.tsv", 0);
    const QStringList es = column(data + "/tatoeba-en-es/dev.tsv", 1);
    const QStringList de = column(data + "/tatoeba-en-de/dev.tsv", 1);
    const QStringList fr = column(data + "/tatoeba-en-fr/dev.tsv", 1);
    if (en.isEmpty() || es.size() != en.size()) {
        std::fprintf(stderr, "bench_languageguard: no %s/tatoeba-en-es/dev.tsv (--data DIR)\n",
                     qPrintable(data));
        return 1;
    }
    QStringList samples;
    for (const QFileInfo &file :
         QDir(QStringLiteral(GLOSA_SOURCE_DIR "/resources/samples")).entryInfoList({"*.txt"})) {
        QFile f(file.filePath());
        if (f.open(QIODevice::ReadOnly))
            for (const QString &p : QString::fromUtf8(f.readAll()).split(QLatin1Char('\n')))
                if (!p.trimmed().isEmpty())
                    samples << p;
    }
    // A sentence followed by a shorter one of the other language (a different pair's).
    auto mixed = [](const QStringList &main, const QStringList &quoted) {
        QStringList texts;
        for (qsizetype i = 0; i < main.size(); ++i) {
            const QString &q = quoted[(i * 7 + 3) % quoted.size()];
            if (q.size() < main[i].size())
                texts << main[i] + QStringLiteral(" \"") + q + QStringLiteral("\"");
        }
        return texts;
    };
    const QStringList enMixed = mixed(en, es), esMixed = mixed(es, en);
    const QStringList enParagraphs = paragraphsOf(en, 5), esParagraphs = paragraphsOf(es, 5);

    const LanguageGuess &guess = LanguageGuess::bundled();
    QTextStream out(stdout);
    QList<qsizetype> lengths;
    for (const QString &text : en + es)
        lengths << text.size();
    std::sort(lengths.begin(), lengths.end());
    out << "dev sentences: " << en.size() << " pairs, median " << lengths[lengths.size() / 2]
        << " characters, " << percent(en + es, [](const QString &t) { return t.size() < 20; })
        << "% under 20 (mixed: " << enMixed.size() << " en+es, "
        << esMixed.size() << " es+en); samples: " << samples.size() << " paragraphs; de "
        << de.size() << ", fr " << fr.size() << "\n\n";
    out << "| min trigrams | min margin | false alarm: sentence en/es | mixed en/es | samples "
           "| miss: sentence es/en | miss: paragraph es/en | de, fr called es |\n"
        << "|---|---|---|---|---|---|---|---|\n";
    for (const int minTrigrams : {6, 8, 12, 16, 24})
        for (const double margin : {0.2, 0.35, 0.5, 0.65}) {
            auto is = [&](const QString &language) {
                return [&, language](const QString &text) {
                    return guess.guess(text, minTrigrams, margin) == language;
                };
            };
            auto isNot = [&](const QString &language) {
                return [&, language](const QString &text) {
                    return guess.guess(text, minTrigrams, margin) != language;
                };
            };
            const bool ours = minTrigrams == LanguageGuess::kMinTrigrams &&
                              margin == LanguageGuess::kMinMarginPerTrigram;
            out << "| " << (ours ? "**" : "") << minTrigrams << (ours ? "**" : "") << " | "
                << (ours ? "**" : "") << margin << (ours ? "**" : "") << " | "
                << QString::asprintf("%.1f%% / %.1f%% | %.1f%% / %.1f%% | %.1f%% | "
                                     "%.1f%% / %.1f%% | %.1f%% / %.1f%% | %.1f%%, %.1f%% |\n",
                                     percent(en, is("es")), percent(es, is("en")),
                                     percent(enMixed, is("es")), percent(esMixed, is("en")),
                                     percent(samples, is("es")), percent(es, isNot("es")),
                                     percent(en, isNot("en")), percent(esParagraphs, isNot("es")),
                                     percent(enParagraphs, isNot("en")), percent(de, is("es")),
                                     percent(fr, is("es")));
        }
    return 0;
}
