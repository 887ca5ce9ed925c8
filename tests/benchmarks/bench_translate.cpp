// bench_translate: the engine side of the translation speed benchmark (docs/benchmarks.md),
// mirroring tools/bench/translate_torch.py step for step: the same package, sentences, batching
// (stable sort by source length, consecutive batches), maximum length (1.5 × padded source
// length + 10 per batch), PAD/BOS suppressed, greedy or beam search with GNMT α = 0.6.
//
//   build-nmt/bin/bench_translate --model resources/models/transformer-en-es
//       --input /tmp/bench-en.txt --strategy beam --batch 32 --threads 2 --output /tmp/out.txt
//
// Prints one JSON line: sentences/s, target tokens/s (generated pieces, EOS excluded), wall
// seconds of the decoding loop (tokenisation and detokenisation included, model loading
// excluded) and the peak resident memory of the process (ru_maxrss, model loading included).
// --output-ids writes each translation's token ids (a line per sentence): an imported MarianMT
// package with random weights (tools/bench/make_opus_shape.py) decodes to unknown pieces, so the table
// script compares its sides by ids. Suppressed tokens are the package's pad_id and start token
// (Marian's EOS is 0, our PAD).
// The decoders are the plugins' own classes (linked statically here), so the numbers are those
// of the code glosa-cli and the GUI run.
#include "engine/decoding/search.h"
#include "engine/package.h"
#include "engine/runtime.h"
#include "engine/text/tokenizer.h"
#include "plugins/rnnattention/rnnattentiondecoder.h"
#include "plugins/transformer/transformerdecoder.h"

#include <sys/resource.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <memory>
#include <numeric>
#include <stdexcept>
#include <string>
#include <vector>

using namespace glosa;

namespace {

struct Options
{
    std::string model, input, output, outputIds;
    std::string strategy = "greedy";
    int beam = 4;
    float alpha = 0.6f;
    int batch = 1;
    int threads = 2;
    double maxLenA = 1.5, maxLenB = 10;
    int warmup = 8;
    engine::ComputeType computeType = engine::ComputeType::Auto;
};

Options parse(int argc, char **argv)
{
    Options o;
    for (int i = 1; i < argc; ++i) {
        const std::string arg = argv[i];
        auto value = [&]() -> std::string {
            if (i + 1 >= argc)
                throw std::invalid_argument(arg + " needs a value");
            return argv[++i];
        };
        if (arg == "--model")
            o.model = value();
        else if (arg == "--input")
            o.input = value();
        else if (arg == "--output")
            o.output = value();
        else if (arg == "--output-ids")
            o.outputIds = value();
        else if (arg == "--strategy")
            o.strategy = value();
        else if (arg == "--beam")
            o.beam = std::stoi(value());
        else if (arg == "--alpha")
            o.alpha = std::stof(value());
        else if (arg == "--batch")
            o.batch = std::stoi(value());
        else if (arg == "--threads")
            o.threads = std::stoi(value());
        else if (arg == "--max-len-a")
            o.maxLenA = std::stod(value());
        else if (arg == "--max-len-b")
            o.maxLenB = std::stod(value());
        else if (arg == "--warmup")
            o.warmup = std::stoi(value());
        else if (arg == "--compute-type")
            o.computeType = engine::parseComputeType(value());
        else
            throw std::invalid_argument("unknown option " + arg);
    }
    if (o.model.empty() || o.input.empty())
        throw std::invalid_argument("usage: bench_translate --model DIR --input FILE [--strategy "
                                    "greedy|beam] [--beam 4] [--batch 1] [--threads 2] "
                                    "[--compute-type auto|float32|int8] [--max-len-a 1.5] [--max-len-b 10] "
                                    "[--output FILE] [--output-ids FILE]");
    if (o.strategy != "greedy" && o.strategy != "beam")
        throw std::invalid_argument("--strategy must be greedy or beam");
    if (o.batch < 1)
        throw std::invalid_argument("--batch must be >= 1");
    return o;
}

std::unique_ptr<engine::TextStepDecoder> makeDecoder(const engine::ModelPackage &package)
{
    if (package.architecture() == "transformer")
        return std::make_unique<transformer::TransformerDecoder>(package);
    if (package.architecture() == "rnn-attention")
        return std::make_unique<rnnattention::RnnAttentionDecoder>(package);
    throw std::invalid_argument("no decoder for architecture " + package.architecture());
}

struct Run
{
    std::vector<std::string> translations;
    std::vector<std::vector<std::int32_t>> ids; // the best hypothesis' tokens, EOS excluded
    std::int64_t targetTokens = 0;
};

Run translate(engine::TextStepDecoder &decoder, std::int32_t padId,
              const engine::Tokenizer &source, const engine::Tokenizer &target,
              const std::vector<std::string> &sentences, const Options &o)
{
    std::vector<std::vector<std::int32_t>> ids;
    for (const std::string &s : sentences) {
        std::vector<int> pieces = source.encodeIds(s);
        std::vector<std::int32_t> row(pieces.begin(), pieces.end());
        row.push_back(decoder.endToken());
        ids.push_back(std::move(row));
    }
    std::vector<std::size_t> order(ids.size());
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(),
                     [&](std::size_t a, std::size_t b) { return ids[a].size() < ids[b].size(); });
    engine::DecodingOptions options;
    options.strategy =
        o.strategy == "beam" ? engine::SearchStrategy::Beam : engine::SearchStrategy::Greedy;
    options.beamSize = o.beam;
    options.lengthNormalization = engine::LengthNormalization::Gnmt;
    options.lengthPenalty = o.alpha;
    // PAD and the start token (BOS; <pad> again for MarianMT, whose EOS is 0), as the PyTorch
    // searches.
    options.suppressTokens = {padId, decoder.startToken()};
    Run run;
    run.translations.resize(sentences.size());
    run.ids.resize(sentences.size());
    for (std::size_t k = 0; k < order.size(); k += o.batch) {
        std::vector<std::vector<std::int32_t>> batch;
        std::size_t longest = 0;
        for (std::size_t i = k; i < std::min(order.size(), k + o.batch); ++i) {
            batch.push_back(ids[order[i]]);
            longest = std::max(longest, ids[order[i]].size());
        }
        options.maxLength = static_cast<int>(static_cast<double>(longest) * o.maxLenA + o.maxLenB);
        const std::vector<engine::DecodingResult> results = engine::decode(decoder, batch, options);
        for (std::size_t j = 0; j < results.size(); ++j) {
            const std::vector<std::int32_t> &tokens = results[j].hypotheses.at(0).tokens;
            run.targetTokens += static_cast<std::int64_t>(tokens.size());
            run.translations[order[k + j]] =
                target.decode(std::vector<int>(tokens.begin(), tokens.end()));
            run.ids[order[k + j]] = tokens;
        }
    }
    return run;
}

} // namespace

int main(int argc, char **argv)
{
    try {
        const Options o = parse(argc, argv);
        engine::runtime::setNumThreads(o.threads);
        const engine::ModelPackage package = engine::ModelPackage::load(o.model, o.computeType);
        std::unique_ptr<engine::TextStepDecoder> decoder = makeDecoder(package);
        std::vector<std::string> sentences;
        {
            std::ifstream in(o.input);
            if (!in)
                throw std::runtime_error("cannot read " + o.input);
            for (std::string line; std::getline(in, line);)
                sentences.push_back(line);
        }
        const engine::Tokenizer &source = *package.sourceTokenizer();
        const engine::Tokenizer &target = *package.targetTokenizer();
        const std::vector<std::string> warm(sentences.begin(),
                                            sentences.begin() +
                                                std::min<std::size_t>(sentences.size(), o.warmup));
        const auto padId = package.hyperparameter<std::int32_t>("pad_id", 0);
        translate(*decoder, padId, source, target, warm, o);

        const auto start = std::chrono::steady_clock::now();
        const Run run = translate(*decoder, padId, source, target, sentences, o);
        const double seconds =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        if (!o.output.empty()) {
            std::ofstream out(o.output);
            for (const std::string &t : run.translations)
                out << t << "\n";
        }
        if (!o.outputIds.empty()) { // one line per sentence, ids separated by spaces
            std::ofstream out(o.outputIds);
            for (const std::vector<std::int32_t> &row : run.ids) {
                for (std::size_t i = 0; i < row.size(); ++i)
                    out << (i ? " " : "") << row[i];
                out << "\n";
            }
        }
        rusage usage{};
        getrusage(RUSAGE_SELF, &usage);
        const double n = static_cast<double>(sentences.size());
        std::printf("{\"engine\": \"glosa\", \"model\": \"%s\", \"compute_type\": \"%s\", "
                    "\"strategy\": \"%s\", \"batch\": %d, \"threads\": %d, \"sentences\": %zu, "
                    "\"target_tokens\": %lld, "
                    "\"seconds\": %.3f, \"sentences_per_s\": %.2f, \"tokens_per_s\": %.1f, "
                    "\"peak_rss_mb\": %.1f}\n",
                    package.id().c_str(), engine::computeTypeName(package.computeType()),
                    o.strategy == "beam" ? ("beam " + std::to_string(o.beam)).c_str() : "greedy",
                    o.batch, o.threads, sentences.size(), static_cast<long long>(run.targetTokens),
                    seconds, n / seconds, static_cast<double>(run.targetTokens) / seconds,
                    static_cast<double>(usage.ru_maxrss) / 1024.0);
        return 0;
    } catch (const std::exception &e) {
        std::cerr << "bench_translate: " << e.what() << "\n";
        return 1;
    }
}
