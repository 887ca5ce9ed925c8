#include "app/core/documents/documenttranslator.h"

#include "engine/decoding/coverage.h"
#include "engine/decoding/search.h"
#include "engine/text/sentencesplitter.h"
#include "engine/translation/translationmodel.h"
#include "engine/translation/translator.h"

#include <QElapsedTimer>

#include <algorithm>
#include <numeric>
#include <stdexcept>

namespace glosa::documents {

namespace {

// The source piece target piece `row` attends to most; EOS and empty pieces do not count.
int mostAttended(const engine::Tensor &alignment, std::size_t row,
                 const std::vector<engine::Token> &sourceTokens)
{
    const std::size_t width = sourceTokens.size();
    const float *weights = alignment.data<float>() + row * width;
    int best = -1;
    for (std::size_t j = 0; j < width; ++j)
        if (!sourceTokens[j].bytes.empty() && (best < 0 || weights[j] > weights[best]))
            best = int(j);
    return best;
}

} // namespace

DocumentTranslator::DocumentTranslator(engine::Translator &translator, QObject *parent)
    : QObject(parent), m_translator(translator)
{
}

void DocumentTranslator::setWindowSize(int size)
{
    if (size < 1)
        throw std::invalid_argument("DocumentTranslator: window size " + std::to_string(size) +
                                    " must be at least 1");
    m_windowSize = size;
}

std::vector<int> DocumentTranslator::sentenceCounts(const Document &document) const
{
    // Sentences as the user thinks of a document, split by the same rules the translator uses
    // (a long sentence cut into chunks still counts once).
    const engine::SentenceSplitter splitter(m_translator.model().sourceLanguage());
    std::vector<int> counts;
    counts.reserve(document.segments.size());
    for (const Segment &segment : document.segments) {
        const std::string_view text(segment.text.constData(), std::size_t(segment.text.size()));
        counts.push_back(std::max(1, int(splitter.split(text).size())));
    }
    return counts;
}

bool DocumentTranslator::translate(Document &document, const engine::DecodingOptions &options,
                                   const std::atomic<bool> *cancelled)
{
    m_cancelled = false;
    document.targetLanguage = QString::fromStdString(m_translator.model().targetLanguage());
    const std::vector<int> sentenceCount = sentenceCounts(document);
    std::vector<int> pending;
    qint64 pendingBytes = 0;
    int total = 0, done = 0;
    for (int i = 0; i < int(document.segments.size()); ++i) {
        const Segment &segment = document.segments[i];
        total += sentenceCount[i];
        // A paragraph with a run of text too long to cut (noteOverlongRuns said so) stays as it
        // was read: the model would spend minutes and gigabytes on it.
        if (segment.translation || hasOverlongRun(segment.text)) {
            done += sentenceCount[i];
        } else {
            pending.push_back(i);
            pendingBytes += segment.text.size();
        }
    }
    emit progress(done, total, pending.empty() ? 0 : -1);

    engine::DecodingControl control;
    auto stopped = [&] { return m_cancelled.load() || (cancelled && cancelled->load()); };
    control.cancelled = stopped;
    QElapsedTimer timer;
    timer.start();
    qint64 bytesDone = 0;
    const std::size_t batch = std::size_t(m_translator.batchSize());

    for (std::size_t windowStart = 0; windowStart < pending.size(); windowStart += m_windowSize) {
        std::vector<int> window(pending.begin() + windowStart,
                                pending.begin() +
                                    std::min(pending.size(), windowStart + m_windowSize));
        std::stable_sort(window.begin(), window.end(), [&](int a, int b) {
            return document.segments[a].text.size() < document.segments[b].text.size();
        });
        for (std::size_t first = 0; first < window.size(); first += batch) {
            const std::size_t last = std::min(window.size(), first + batch);
            // One text, a segment a line: a line break always ends a sentence, so no sentence
            // spans two segments.
            std::string joined;
            std::vector<std::size_t> starts;
            for (std::size_t k = first; k < last; ++k) {
                starts.push_back(joined.size());
                std::string text = document.segments[window[k]].text.toStdString();
                std::replace_if(
                    text.begin(), text.end(), [](char c) { return c == '\n' || c == '\r'; }, ' ');
                joined += text;
                joined += '\n';
            }
            engine::TranslationResult result;
            try {
                result = m_translator.translate(joined, options, control);
            } catch (const engine::DecodingCancelled &) {
                return false;
            }
            std::vector<SegmentTranslation> translations(last - first);
            std::vector<qsizetype> copied(last - first, 0); // source bytes copied so far
            auto owner = [&](std::size_t offset) {
                return std::size_t(std::upper_bound(starts.begin(), starts.end(), offset) -
                                   starts.begin() - 1);
            };
            for (const engine::TranslatedSegment &sentence : result.segments) {
                const std::size_t k = owner(sentence.source.begin);
                const qsizetype start = qsizetype(starts[k]);
                SegmentTranslation &out = translations[k];
                const QByteArray &source = document.segments[window[first + k]].text;
                // The white space between sentences, as in the source.
                const qsizetype begin = qsizetype(sentence.source.begin) - start;
                out.text += source.mid(copied[k], std::max<qsizetype>(0, begin - copied[k]));
                copied[k] = std::max(copied[k], qsizetype(sentence.source.end) - start);
                const qsizetype offset = out.text.size();
                out.text += QByteArray(result.text.data() + sentence.target.begin,
                                       qsizetype(sentence.target.size()));
                out.sentences.push_back(
                    {{begin, qsizetype(sentence.source.end) - start}, {offset, out.text.size()}});
                const engine::Tensor &alignment = sentence.alignment();
                const engine::CoverageOptions coverageOptions;
                for (const engine::CoveredWord &word :
                     engine::computeCoverage(alignment, sentence.sourceTokens, joined,
                                             coverageOptions)
                         .words)
                    if (word.flagged)
                        out.sentences.back().omissions.push_back(
                            {{qsizetype(word.bytes.begin) - start,
                              qsizetype(word.bytes.end) - start},
                             word.mass,
                             coverageOptions.threshold});
                // The best hypothesis's pieces, located in its own text (sentence.texts[0]).
                static const std::vector<engine::Token> none;
                const std::vector<engine::Token> &targets =
                    sentence.targetTokens.empty() ? none : sentence.targetTokens.front();
                const std::size_t rows = targets.size();
                const std::size_t sources = sentence.sourceTokens.size();
                for (std::size_t i = 0; i < rows; ++i) {
                    const engine::Token &target = targets[i];
                    if (target.bytes.empty())
                        continue;
                    int j = -1;
                    if (!alignment.empty() && std::size_t(alignment.dim(0)) == rows &&
                        std::size_t(alignment.dim(1)) == sources)
                        j = mostAttended(alignment, i, sentence.sourceTokens);
                    else if (sources > 0) // no attention: assume monotonic
                        j = int(
                            std::min(sources - 1, i * sources / std::max<std::size_t>(rows, 1)));
                    if (j < 0 || sentence.sourceTokens[j].bytes.empty())
                        continue;
                    const engine::TextSpan s = sentence.sourceTokens[j].bytes;
                    out.links.push_back(
                        {{qsizetype(s.begin) - start, qsizetype(s.end) - start},
                         {qsizetype(target.bytes.begin) + offset,
                          qsizetype(target.bytes.end) + offset}});
                }
            }
            for (std::size_t k = 0; k < translations.size(); ++k) {
                Segment &segment = document.segments[window[first + k]];
                translations[k].text += segment.text.mid(copied[k]);
                segment.translation = std::move(translations[k]);
                bytesDone += segment.text.size();
                done += sentenceCount[window[first + k]];
                emit segmentTranslated(window[first + k]);
            }
            const qint64 elapsed = timer.elapsed();
            const qint64 left =
                bytesDone > 0
                    ? qint64(double(elapsed) * double(pendingBytes - bytesDone) / double(bytesDone))
                    : -1;
            emit progress(done, total, left);
            if (stopped())
                return false;
        }
    }
    return true;
}

} // namespace glosa::documents

#include "moc_documenttranslator.cpp"
