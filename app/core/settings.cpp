#include "app/core/settings.h"

#include <QSettings>
#include <QStringList>

namespace glosa {

HistoryRetention historyRetentionFromSettings()
{
    const QSettings settings;
    HistoryRetention retention;
    retention.maxEntries =
        settings.value(QLatin1String(settingsKeys::kHistoryMaxEntries), 0).toLongLong();
    retention.maxAgeDays =
        settings.value(QLatin1String(settingsKeys::kHistoryMaxAgeDays), 0).toInt();
    retention.maxBytes =
        settings
            .value(QLatin1String(settingsKeys::kHistoryMaxMegabytes), kDefaultHistoryMaxMegabytes)
            .toLongLong() *
        1024 * 1024;
    return retention;
}

QVariantMap decodingOptionsToMap(const engine::DecodingOptions &o)
{
    QVariantMap m;
    m[QStringLiteral("strategy")] = QString::fromLatin1(engine::searchStrategyName(o.strategy));
    m[QStringLiteral("beam_size")] = o.beamSize;
    m[QStringLiteral("n_best")] = o.nBest;
    m[QStringLiteral("length_normalization")] =
        QString::fromLatin1(engine::lengthNormalizationName(o.lengthNormalization));
    m[QStringLiteral("length_penalty")] = o.lengthPenalty;
    m[QStringLiteral("coverage_penalty")] = o.coveragePenalty;
    m[QStringLiteral("early_stopping")] =
        QString::fromLatin1(engine::earlyStoppingName(o.earlyStopping));
    m[QStringLiteral("max_length")] = o.maxLength;
    m[QStringLiteral("max_length_ratio")] = o.maxLengthRatio;
    m[QStringLiteral("min_length")] = o.minLength;
    m[QStringLiteral("no_repeat_ngram")] = o.noRepeatNgramSize;
    m[QStringLiteral("repetition_penalty")] = o.repetitionPenalty;
    m[QStringLiteral("ngram_penalty")] = o.ngramPenalty;
    m[QStringLiteral("ngram_penalty_size")] = o.ngramPenaltySize;
    m[QStringLiteral("temperature")] = o.temperature;
    m[QStringLiteral("top_k")] = o.topK;
    m[QStringLiteral("top_p")] = o.topP;
    m[QStringLiteral("seed")] = QString::number(o.seed);
    return m;
}

engine::DecodingOptions decodingOptionsFromMap(const QVariantMap &m)
{
    engine::DecodingOptions o;
    auto text = [&](const char *key) { return m.value(QLatin1String(key)).toString().toStdString(); };
    // A stale or hand-edited settings file must not stop the app: unknown names keep defaults.
    try {
        if (m.contains(QStringLiteral("strategy")))
            o.strategy = engine::searchStrategyFromName(text("strategy"));
        if (m.contains(QStringLiteral("length_normalization")))
            o.lengthNormalization = engine::lengthNormalizationFromName(text("length_normalization"));
        if (m.contains(QStringLiteral("early_stopping")))
            o.earlyStopping = engine::earlyStoppingFromName(text("early_stopping"));
    } catch (const std::exception &) {
    }
    auto toInt = [&](const char *key, int &field) {
        if (m.contains(QLatin1String(key)))
            field = m.value(QLatin1String(key)).toInt();
    };
    auto toFloat = [&](const char *key, float &field) {
        if (m.contains(QLatin1String(key)))
            field = m.value(QLatin1String(key)).toFloat();
    };
    toInt("beam_size", o.beamSize);
    toInt("n_best", o.nBest);
    toFloat("length_penalty", o.lengthPenalty);
    toFloat("coverage_penalty", o.coveragePenalty);
    toInt("max_length", o.maxLength);
    toFloat("max_length_ratio", o.maxLengthRatio);
    toInt("min_length", o.minLength);
    toInt("no_repeat_ngram", o.noRepeatNgramSize);
    toFloat("repetition_penalty", o.repetitionPenalty);
    toFloat("ngram_penalty", o.ngramPenalty);
    toInt("ngram_penalty_size", o.ngramPenaltySize);
    toFloat("temperature", o.temperature);
    toInt("top_k", o.topK);
    toFloat("top_p", o.topP);
    if (m.contains(QStringLiteral("seed")))
        o.seed = m.value(QStringLiteral("seed")).toString().toULongLong();
    return o;
}

QString decodingSummary(const engine::DecodingOptions &o)
{
    QStringList parts;
    switch (o.strategy) {
    case engine::SearchStrategy::Greedy:
        parts << QStringLiteral("greedy");
        break;
    case engine::SearchStrategy::Beam:
        parts << QStringLiteral("beam %1").arg(o.beamSize);
        if (o.lengthPenalty != 0.0f)
            parts << QStringLiteral("α %1").arg(o.lengthPenalty);
        break;
    case engine::SearchStrategy::Sample:
        if (o.topK > 0)
            parts << QStringLiteral("top-k %1").arg(o.topK);
        if (o.topP < 1.0f)
            parts << QStringLiteral("top-p %1").arg(o.topP);
        if (o.topK == 0 && o.topP >= 1.0f)
            parts << QStringLiteral("sample");
        if (o.temperature != 1.0f)
            parts << QStringLiteral("T %1").arg(o.temperature);
        break;
    }
    if (o.noRepeatNgramSize > 0)
        parts << QStringLiteral("no-repeat %1").arg(o.noRepeatNgramSize);
    if (o.repetitionPenalty != 1.0f)
        parts << QStringLiteral("rep %1").arg(o.repetitionPenalty);
    if (o.coveragePenalty != 0.0f)
        parts << QStringLiteral("β %1").arg(o.coveragePenalty);
    return parts.join(QStringLiteral(" · "));
}

QList<DecodingPreset> builtInPresets()
{
    QList<DecodingPreset> presets;
    engine::DecodingOptions greedy;
    presets.append({QStringLiteral("Greedy"), greedy, true});

    engine::DecodingOptions beam;
    beam.strategy = engine::SearchStrategy::Beam;
    beam.beamSize = 5;
    presets.append({QStringLiteral("Beam 5"), beam, true});

    engine::DecodingOptions beamNoRepeat = beam;
    beamNoRepeat.noRepeatNgramSize = 3;
    presets.append({QStringLiteral("Beam 5 + no-repeat 3-gram"), beamNoRepeat, true});

    engine::DecodingOptions topK;
    topK.strategy = engine::SearchStrategy::Sample;
    topK.topK = 40;
    topK.temperature = 0.8f;
    presets.append({QStringLiteral("Top-k 40, T 0.8"), topK, true});

    engine::DecodingOptions topP;
    topP.strategy = engine::SearchStrategy::Sample;
    topP.topP = 0.9f;
    presets.append({QStringLiteral("Top-p 0.9"), topP, true});
    return presets;
}

} // namespace glosa
