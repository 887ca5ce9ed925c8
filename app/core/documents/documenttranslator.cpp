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

// The segments left to translate, and the progress counted in sentences and bytes.
struct Work
{
    std::vector<int> pending; // segment indices, in order
    qint64 pendingBytes = 0;
    qint64 bytesDone = 0;
    int total = 0; // sentences
    int done = 0;

    qint64 millisecondsLeft(qint64 elapsed) const
    {
        return bytesDone > 0
                   ? qint64(double(elapsed) * double(pendingBytes - bytesDone) / double(bytesDone))
                   : -1;
    }
};

Work pendingWork(const Document &document, const std::vector<int> &sentenceCount)
{
    Work work;
    for (int i = 0; i < int(document.segments.size()); ++i) {
        const Segment &segment = document.segments[i];
        work.total += sentenceCount[i];
        // A paragraph with a run of text too long to cut (noteOverlongRuns said so) stays as it
        // was read: the model would spend minutes and gigabytes on it.
        if (segment.translation || hasOverlongRun(segment.text)) {
            work.done += sentenceCount[i];
        } else {
            work.pending.push_back(i);
            work.pendingBytes += segment.text.size();
        }
    }
    return work;
}

// The segments of `batch` as one text, a segment a line: a line break always ends a sentence, so
// no sentence spans two segments. `starts`: where each segment begins in it.
std::string joinedBatch(const Document &document, const std::vector<int> &batch,
                        std::vector<std::size_t> *starts)
{
    std::string joined;
    for (const int index : batch) {
        starts->push_back(joined.size());
        std::string text = document.segments[index].text.toStdString();
        std::replace_if(
            text.begin(), text.end(), [](char c) { return c == '\n' || c == '\r'; }, ' ');
        joined += text;
        joined += '\n';
    }
    return joined;
}

// The words of `sentence` that its translation left out (little attention), as ranges of its
// segment, which begins at `start` in `joined`.
void addOmissions(SentencePair &pair, const engine::TranslatedSegment &sentence,
                  const std::string &joined, qsizetype start)
{
    const engine::CoverageOptions coverageOptions;
    for (const engine::CoveredWord &word :
         engine::computeCoverage(sentence.alignment(), sentence.sourceTokens, joined,
                                 coverageOptions)
             .words)
        if (word.flagged)
            pair.omissions.push_back(
                {{qsizetype(word.bytes.begin) - start, qsizetype(word.bytes.end) - start},
                 word.mass,
                 coverageOptions.threshold});
}

// A link from each piece of the best hypothesis (located in its own text, sentence.texts[0],
// which begins at `offset` in out.text) to the source piece it attends to most, or, without
// attention, to the one at the same relative place.
void addLinks(SegmentTranslation &out, const engine::TranslatedSegment &sentence, qsizetype start,
              qsizetype offset)
{
    static const std::vector<engine::Token> none;
    const engine::Tensor &alignment = sentence.alignment();
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
            j = int(std::min(sources - 1, i * sources / std::max<std::size_t>(rows, 1)));
        if (j < 0 || sentence.sourceTokens[j].bytes.empty())
            continue;
        const engine::TextSpan s = sentence.sourceTokens[j].bytes;
        out.links.push_back(
            {{qsizetype(s.begin) - start, qsizetype(s.end) - start},
             {qsizetype(target.bytes.begin) + offset, qsizetype(target.bytes.end) + offset}});
    }
}

// Each segment of `batch` translated: its sentences' translations with the source's white space
// between them, where each sentence went, its omissions and its links.
std::vector<SegmentTranslation> batchTranslations(const Document &document,
                                                  const std::vector<int> &batch,
                                                  const engine::TranslationResult &result,
                                                  const std::string &joined,
                                                  const std::vector<std::size_t> &starts)
{
    std::vector<SegmentTranslation> translations(batch.size());
    std::vector<qsizetype> copied(batch.size(), 0); // source bytes copied so far
    for (const engine::TranslatedSegment &sentence : result.segments) {
        const std::size_t k =
            std::size_t(std::upper_bound(starts.begin(), starts.end(), sentence.source.begin) -
                        starts.begin() - 1);
        const qsizetype start = qsizetype(starts[k]);
        SegmentTranslation &out = translations[k];
        const QByteArray &source = document.segments[batch[k]].text;
        // The white space between sentences, as in the source.
        const qsizetype begin = qsizetype(sentence.source.begin) - start;
        out.text += source.mid(copied[k], std::max<qsizetype>(0, begin - copied[k]));
        copied[k] = std::max(copied[k], qsizetype(sentence.source.end) - start);
        const qsizetype offset = out.text.size();
        out.text += QByteArray(result.text.data() + sentence.target.begin,
                               qsizetype(sentence.target.size()));
        out.sentences.push_back(
            {{begin, qsizetype(sentence.source.end) - start}, {offset, out.text.size()}});
        addOmissions(out.sentences.back(), sentence, joined, start);
        addLinks(out, sentence, start, offset);
    }
    for (std::size_t k = 0; k < translations.size(); ++k)
        translations[k].text += document.segments[batch[k]].text.mid(copied[k]);
    return translations;
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
    Work work = pendingWork(document, sentenceCount);
    emit progress(work.done, work.total, work.pending.empty() ? 0 : -1);

    engine::DecodingControl control;
    auto stopped = [&] { return m_cancelled.load() || (cancelled && cancelled->load()); };
    control.cancelled = stopped;
    QElapsedTimer timer;
    timer.start();
    const std::size_t batchSize = std::size_t(m_translator.batchSize());

    const std::vector<int> &pending = work.pending;
    for (std::size_t windowStart = 0; windowStart < pending.size(); windowStart += m_windowSize) {
        std::vector<int> window(pending.begin() + windowStart,
                                pending.begin() +
                                    std::min(pending.size(), windowStart + m_windowSize));
        std::stable_sort(window.begin(), window.end(), [&](int a, int b) {
            return document.segments[a].text.size() < document.segments[b].text.size();
        });
        for (std::size_t first = 0; first < window.size(); first += batchSize) {
            const std::vector<int> batch(window.begin() + first,
                                         window.begin() +
                                             std::min(window.size(), first + batchSize));
            std::vector<std::size_t> starts;
            const std::string joined = joinedBatch(document, batch, &starts);
            engine::TranslationResult result;
            try {
                result = m_translator.translate(joined, options, control);
            } catch (const engine::DecodingCancelled &) {
                return false;
            }
            std::vector<SegmentTranslation> translations =
                batchTranslations(document, batch, result, joined, starts);
            for (std::size_t k = 0; k < batch.size(); ++k) {
                Segment &segment = document.segments[batch[k]];
                segment.translation = std::move(translations[k]);
                work.bytesDone += segment.text.size();
                work.done += sentenceCount[batch[k]];
                emit segmentTranslated(batch[k]);
            }
            emit progress(work.done, work.total, work.millisecondsLeft(timer.elapsed()));
            if (stopped())
                return false;
        }
    }
    return true;
}

} // namespace glosa::documents

#include "moc_documenttranslator.cpp"
