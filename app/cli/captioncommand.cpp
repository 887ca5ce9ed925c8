// `glosa-cli caption`.
//
//   glosa-cli caption --model ID_OR_DIR [the decoding options of translate] [--json]
//                     [--save-history] IMAGE...
//
// Writes one caption per image per line on stdout, in order, flushed after each image. Images are
// read with loadRgbImage (app/core/inference/imageloader.h: jpg, png, webp, bmp, first frame of a gif, EXIF
// orientation, alpha over white). An image that cannot be read gives an empty line (a JSON object
// with "image" and "error" under --json) and a message on stderr; the other images are still
// captioned and the exit code is 1. Bad arguments: exit code 2; a model that cannot load: 1.
//
// --json writes one object per image: "image", "caption", "hypotheses" (best first; each "text",
// "tokens" (pieces), "token_ids", "token_logprobs", "score", "complete"), "tokens" (the best
// hypothesis's pieces), "attention" (one row per token of the best hypothesis, one column per
// grid cell in row-major order; each row sums to 1), "grid" ([rows, cols]), "strategy" (every
// setting in effect), "model", "elapsed_ms".
//
// --save-history records each caption as the app does (image path, SHA-256 and thumbnail, the
// best caption with its attention, the settings) in the database `historyPath` (see
// historycommand.h); nothing is recorded without it.
#include "app/cli/help.h"

#include "app/cli/historycommand.h"
#include "app/cli/modeloptions.h"
#include "app/core/history/entrykinds.h"
#include "app/core/inference/imageloader.h"
#include "app/core/models/modelcatalog.h"
#include "app/core/models/pluginregistry.h"
#include "app/core/inference/translationrunner.h"
#include "engine/captioning/captioningmodel.h"
#include "engine/decoding/decodingfields.h"

#include <QCommandLineParser>
#include <QElapsedTimer>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTextStream>

#include <nlohmann/json.hpp>

#include <cmath>
#include <memory>

namespace glosa::cli {

namespace {

QString fromUtf8(const std::string &text)
{
    return QString::fromUtf8(text.data(), qsizetype(text.size()));
}

double rounded(double value, double scale)
{
    return std::round(value * scale) / scale;
}

std::shared_ptr<engine::CaptioningModel> loadCaptioner(const QString &idOrFolder, QString *error,
                                                       ModelInfo *info)
{
    std::shared_ptr<engine::Model> model =
        loadInstalledModel(idOrFolder, taskKey(engine::Task::Captioning), error, info);
    auto captioner = std::dynamic_pointer_cast<engine::CaptioningModel>(model);
    if (model && !captioner)
        *error = QStringLiteral("model '%1': its plugin did not give a captioning model")
                     .arg(idOrFolder);
    return captioner;
}

QJsonObject toJson(const QString &image, const engine::ImageCaption &caption,
                   const engine::DecodingOptions &options, const engine::CaptioningModel &model,
                   double elapsedMs)
{
    const engine::Tokenizer &tokenizer = model.tokenizer();
    QJsonObject object;
    object["image"] = image;
    QJsonArray hypotheses;
    for (const engine::Hypothesis &h : caption.result.hypotheses) {
        QJsonObject hyp;
        const std::vector<int> ids(h.tokens.begin(), h.tokens.end());
        hyp["text"] = fromUtf8(tokenizer.decode(ids));
        QJsonArray pieces, tokenIds, logProbs;
        for (std::size_t t = 0; t < h.tokens.size(); ++t) {
            pieces.append(fromUtf8(tokenizer.idToPiece(h.tokens[t])));
            tokenIds.append(h.tokens[t]);
            logProbs.append(rounded(h.tokenLogProbs[t], 1e4));
        }
        hyp["tokens"] = pieces;
        hyp["token_ids"] = tokenIds;
        hyp["token_logprobs"] = logProbs;
        hyp["score"] = rounded(h.score, 1e4);
        hyp["complete"] = h.endedWithEos;
        hypotheses.append(hyp);
    }
    // As the app shows it; the hypotheses keep the model's own text and tokens.
    object["caption"] =
        hypotheses.isEmpty() ? QString() : tidyCaption(hypotheses[0].toObject()["text"].toString());
    object["hypotheses"] = hypotheses;
    object["tokens"] =
        hypotheses.isEmpty() ? QJsonArray() : hypotheses[0].toObject()["tokens"].toArray();
    QJsonArray attention;
    if (!caption.result.hypotheses.empty()) {
        const engine::Tensor &a = caption.result.hypotheses[0].attention;
        if (a.rank() == 2)
            for (std::int64_t t = 0; t < a.dim(0); ++t) {
                QJsonArray row;
                for (std::int64_t i = 0; i < a.dim(1); ++i)
                    row.append(rounded(a.data<float>()[t * a.dim(1) + i], 1e5));
                attention.append(row);
            }
    }
    object["attention"] = attention;
    object["grid"] = QJsonArray{caption.gridRows, caption.gridCols};
    object["strategy"] = QJsonDocument::fromJson(QByteArray::fromStdString(
                                                     engine::decodingOptionsToJson(options).dump()))
                             .object();
    object["model"] = QString::fromStdString(model.id());
    object["elapsed_ms"] = rounded(elapsedMs, 10);
    return object;
}

} // namespace

int runCaptionCommand(const QStringList &args, const CommandIo &io);

Command captionCommand()
{
    Command help;
    help.name = QStringLiteral("caption");
    help.synopsis =
        QStringLiteral("[--model ID_OR_DIR] [decoding options] [--json] [--save-history] "
                       "IMAGE...");
    help.summary = QStringLiteral("Describe images in words.");
    help.description =
        QStringLiteral("Writes one caption per image per line (jpg, png, webp, bmp, gif). An image "
                       "that cannot be read gives an empty line and a message on stderr (exit "
                       "code 1). --json also gives every hypothesis, its tokens and "
                       "log-probabilities, and where the model looked for each word.\n\n") +
        decodingHelpParagraph();
    help.options = {
        {"model", "Model id or package folder of a captioning model (default: the installed one).",
         "ID_OR_DIR"}};
    help.options += decodingCommandLineOptions();
    help.options += QList<QCommandLineOption>{
        {"json", "One JSON object per image."},
        {"save-history", "Record each caption in the history (--history PATH chooses it)."}};
    help.examples = {QStringLiteral("glosa-cli caption photo.jpg"),
                     QStringLiteral("glosa-cli caption --model captioner-en --beam-size 5 --json "
                                    "*.jpg")};
    help.run = runCaptionCommand;
    return help;
}

// The captioning model --model names, else the default one; "" with a message when none is
// installed.
QString captionerId(const QCommandLineParser &parser, QTextStream &err)
{
    const QString modelId = parser.value("model");
    if (!modelId.isEmpty())
        return modelId;
    const Installed installed;
    const std::optional<ModelInfo> captioner =
        installed.catalog.defaultModel(taskKey(engine::Task::Captioning));
    if (!captioner) {
        err << "glosa-cli caption: no captioning model is installed (see 'glosa-cli "
               "models')\n";
        return {};
    }
    return captioner->id;
}

// One image captioned, written (text or --json) and, with --save-history, recorded as the app
// would record it (image hash and thumbnail included); false when that failed.
bool captionImage(const QString &path, engine::CaptioningModel &model, const ModelInfo &info,
                  const engine::DecodingOptions &decoding, const QCommandLineParser &parser,
                  const CommandIo &io)
{
    QElapsedTimer timer;
    timer.start();
    const RgbImage image = loadRgbImage(path);
    const engine::ImageCaption caption =
        model.caption(image.pixels.data(), image.width, image.height, decoding);
    const double ms = double(timer.nsecsElapsed()) / 1e6;
    if (parser.isSet("json")) {
        io.out << QJsonDocument(toJson(path, caption, decoding, model, ms))
                      .toJson(QJsonDocument::Compact)
               << "\n";
    } else {
        const auto &hyps = caption.result.hypotheses;
        io.out << (hyps.empty() ? QString()
                                : tidyCaption(fromUtf8(model.tokenizer().decode(std::vector<int>(
                                      hyps[0].tokens.begin(), hyps[0].tokens.end())))))
               << "\n";
    }
    if (!parser.isSet("save-history"))
        return true;
    CaptionResult shown = captionResultFrom(model, caption, path, decoding);
    shown.elapsedMs = ms;
    return saveToHistory(captionHistoryEntry(shown, info), io.historyPath, io.err) != 0;
}

int runCaptionCommand(const QStringList &args, const CommandIo &io)
{
    QTextStream &out = io.out, &err = io.err;
    QCommandLineParser parser;
    parser.setSingleDashWordOptionMode(QCommandLineParser::ParseAsLongOptions);
    parser.addOptions(captionCommand().options);
    parser.addPositionalArgument("images", "Image files.", "IMAGE...");
    if (!parser.parse(QStringList{QStringLiteral("glosa-cli caption")} + args)) {
        err << "glosa-cli caption: " << parser.errorText() << "\n";
        return 2;
    }
    const QStringList images = parser.positionalArguments();
    if (images.isEmpty()) {
        err << "glosa-cli caption: no image given (glosa-cli caption --model ID IMAGE...)\n";
        return 2;
    }
    const QString modelId = captionerId(parser, err);
    if (modelId.isEmpty())
        return 1;
    QString error;
    ModelInfo info;
    const std::shared_ptr<engine::CaptioningModel> model = loadCaptioner(modelId, &error, &info);
    if (!model) {
        err << "glosa-cli caption: " << error << "\n";
        return 1;
    }
    engine::DecodingOptions decoding;
    try {
        decoding = decodingOptionsFromCommandLine(parser, model->defaultDecodingOptions());
        decoding.validate(model->tokenizer().vocabSize()); // bad settings are usage errors
    } catch (const std::invalid_argument &e) {
        err << "glosa-cli caption: " << e.what() << "\n";
        return 2;
    }
    int status = 0;
    for (const QString &path : images) {
        try {
            if (!captionImage(path, *model, info, decoding, parser, io))
                status = 1;
        } catch (const std::exception &e) {
            // ImageLoadError names the file; engine errors do not, so add it.
            const QString message = QString::fromUtf8(e.what());
            err << "glosa-cli caption: "
                << (message.startsWith(path) ? message : path + QStringLiteral(": ") + message)
                << "\n";
            if (parser.isSet("json"))
                out << QJsonDocument(QJsonObject{{"image", path}, {"error", message}})
                           .toJson(QJsonDocument::Compact)
                    << "\n";
            else
                out << "\n";
            status = 1;
        }
        out.flush();
    }
    return status;
}

} // namespace glosa::cli
