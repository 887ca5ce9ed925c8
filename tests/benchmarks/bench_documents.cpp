// bench_documents: whole-document translation speed — a document of N English sentences (the
// first N source sentences of a tab-separated corpus, five to a paragraph) written as .txt or
// .html, then read, translated by DocumentTranslator and written back, as glosa-cli
// translate-doc does.
//
//   build-docs/bin/bench_documents --model resources/models/transformer-en-es
//       --plugins build-docs/plugins --input /work/shared/data/tatoeba-en-es/test.tsv
//       --sentences 1000 --format html --strategy greedy --batch 32 --threads 2
//
// Prints one JSON line: sentences and segments translated, wall seconds (reading, translating,
// writing; model loading excluded), sentences/s, and the peak resident memory of the process
// (ru_maxrss, model loading included).
#include "app/core/documents/documenttranslator.h"
#include "app/core/documents/formats.h"
#include "app/core/models/modelcatalog.h"
#include "app/core/models/pluginregistry.h"
#include "engine/runtime.h"
#include "engine/translation/translationmodel.h"
#include "engine/translation/translator.h"

#include <QCoreApplication>
#include <QFile>
#include <QTemporaryDir>

#include <sys/resource.h>

#include <chrono>
#include <cstdio>
#include <iostream>

using namespace glosa;

int main(int argc, char *argv[])
{
    QCoreApplication app(argc, argv);
    QString model = QStringLiteral(GLOSA_SOURCE_DIR "/resources/models/transformer-en-es");
    QString plugins = QCoreApplication::applicationDirPath() + QStringLiteral("/../plugins");
    QString input = QStringLiteral(GLOSA_DATA_DEFAULT "/tatoeba-en-es/test.tsv");
    QString format = QStringLiteral("html");
    QString strategy = QStringLiteral("greedy");
    int sentences = 1000, batch = 32, threads = 2;
    const QStringList args = app.arguments();
    for (int i = 1; i + 1 < args.size(); i += 2) {
        const QString &name = args[i], &value = args[i + 1];
        if (name == QLatin1String("--model"))
            model = value;
        else if (name == QLatin1String("--plugins"))
            plugins = value;
        else if (name == QLatin1String("--input"))
            input = value;
        else if (name == QLatin1String("--format"))
            format = value;
        else if (name == QLatin1String("--strategy"))
            strategy = value;
        else if (name == QLatin1String("--sentences"))
            sentences = value.toInt();
        else if (name == QLatin1String("--batch"))
            batch = value.toInt();
        else if (name == QLatin1String("--threads"))
            threads = value.toInt();
        else {
            std::cerr << "bench_documents: unknown option " << name.toStdString() << "\n";
            return 2;
        }
    }
    try {
        engine::runtime::setNumThreads(threads);
        PluginRegistry registry;
        registry.scan({plugins});
        QString error;
        auto loaded = ModelCatalog::load(ModelCatalog::readPackage(model), registry, &error);
        auto translation = std::dynamic_pointer_cast<engine::TranslationModel>(loaded);
        if (!translation) {
            std::cerr << "bench_documents: cannot load " << model.toStdString() << ": "
                      << error.toStdString() << "\n";
            return 1;
        }

        // The document: N sentences, five to a paragraph.
        QFile corpus(input);
        if (!corpus.open(QIODevice::ReadOnly)) {
            std::cerr << "bench_documents: cannot read " << input.toStdString() << "\n";
            return 1;
        }
        QByteArray body;
        int count = 0;
        QByteArray paragraph;
        while (count < sentences && !corpus.atEnd()) {
            const QByteArray source = corpus.readLine().split('\t').first().trimmed();
            if (source.isEmpty())
                continue;
            paragraph += (paragraph.isEmpty() ? "" : " ") + source;
            if (++count % 5 == 0 || count == sentences) {
                if (format == QLatin1String("html")) {
                    paragraph.replace('&', "&amp;").replace('<', "&lt;");
                    body += "<p>" + paragraph + "</p>\n";
                } else {
                    body += paragraph + "\n\n";
                }
                paragraph.clear();
            }
        }
        if (format == QLatin1String("html"))
            body = "<!DOCTYPE html>\n<html><body>\n" + body + "</body></html>\n";
        QTemporaryDir dir;
        const QString in = dir.filePath(QStringLiteral("in.") + format);
        const QString out = dir.filePath(QStringLiteral("out.") + format);
        QFile file(in);
        if (!file.open(QIODevice::WriteOnly) || file.write(body) != body.size())
            return 1;
        file.close();

        engine::DecodingOptions options = translation->defaultDecodingOptions();
        options.strategy = engine::searchStrategyFromName(strategy.toStdString());
        engine::Translator translator(translation);
        translator.setBatchSize(batch);
        documents::DocumentTranslator documentTranslator(translator);

        const auto start = std::chrono::steady_clock::now();
        documents::Document document = documents::readDocument(in);
        documentTranslator.translate(document, options);
        documents::writeDocument(document, out);
        const double seconds =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        rusage usage{};
        getrusage(RUSAGE_SELF, &usage);
        std::printf("{\"model\": \"%s\", \"format\": \"%s\", \"strategy\": \"%s\", \"batch\": %d, "
                    "\"threads\": %d, \"sentences\": %d, \"segments\": %zu, \"bytes\": %lld, "
                    "\"seconds\": %.3f, \"sentences_per_s\": %.1f, \"peak_rss_mb\": %.1f}\n",
                    translation->id().c_str(), qPrintable(format), qPrintable(strategy), batch,
                    threads, count, document.segments.size(), static_cast<long long>(body.size()),
                    seconds, count / seconds, usage.ru_maxrss / 1024.0);
    } catch (const std::exception &failure) {
        std::cerr << "bench_documents: " << failure.what() << "\n";
        return 1;
    }
    return 0;
}
