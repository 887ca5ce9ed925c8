#include "app/core/settings/decodingmaps.h"

#include "app/core/settings/decodingfieldinfo.h"

#include "engine/decoding/decodingfields.h"

#include <QCoreApplication>
#include <QStringList>

namespace glosa {

QVariantMap decodingOptionsToMap(const engine::DecodingOptions &options)
{
    QVariantMap map;
    for (const engine::DecodingField &field : engine::decodingFields())
        map.insert(QLatin1String(field.name),
                   QString::fromStdString(engine::decodingFieldToText(options, field)));
    return map;
}

engine::DecodingOptions decodingOptionsFromMap(const QVariantMap &map)
{
    engine::DecodingOptions options;
    for (const engine::DecodingField &field : engine::decodingFields()) {
        QVariant value = map.value(QLatin1String(field.name));
        if (!value.isValid() && field.formerName)
            value = map.value(QLatin1String(field.formerName));
        if (!value.isValid())
            continue;
        // Maps saved before every value was text hold numbers (as QVariant int or float, whose
        // toString() is their shortest decimal) and token-id lists.
        QString text = value.toString();
        if (value.typeId() == QMetaType::QVariantList || value.typeId() == QMetaType::QStringList)
            text = value.toStringList().join(QLatin1Char(','));
        // A stale or hand-edited settings file must not stop the app: a value that does not
        // parse keeps the default.
        try {
            engine::decodingFieldFromText(options, field, text.toStdString());
        } catch (const std::invalid_argument &) {
        }
    }
    return options;
}

QVariantMap decodingPresetKey(const engine::DecodingOptions &options)
{
    QVariantMap map = decodingOptionsToMap(options);
    for (const engine::DecodingField &field : engine::decodingFields())
        if (!isDecodingSetting(field))
            map.remove(QLatin1String(field.name));
    return map;
}

namespace {

// One field's part of the summary, translated, or an empty string where it has none.
QString summaryPart(const DecodingFieldInfo &info, const engine::DecodingOptions &options)
{
    const engine::DecodingField &field = info.field();
    if (info.summary) {
        if (!(info.summaryStrategySet() & engine::strategyBit(options.strategy)) ||
            field.isOff(options))
            return QString();
        return QCoreApplication::translate("glosa::DecodingSummary", info.summary)
            .arg(QString::fromStdString(engine::decodingFieldToText(options, field)));
    }
    const auto *strategy = std::get_if<engine::SearchStrategy engine::DecodingOptions::*>(
        &field.member);
    const std::size_t value =
        strategy ? std::size_t(options.**strategy) : info.summaryChoices.size();
    if (value >= info.summaryChoices.size() || !info.summaryChoices[value])
        return QString();
    return QCoreApplication::translate("glosa::DecodingSummary", info.summaryChoices[value]);
}

} // namespace

QString decodingSummary(const engine::DecodingOptions &options)
{
    // The parts and their order come from the rows (DecodingFieldInfo's summary): first the
    // strategy and the options that act only in it, then those that act in every strategy, each
    // in table order. In the UI language where the app installed one (column headers, the
    // Documents view's quality); glosa-cli has none and prints English.
    QStringList first, rest;
    for (const DecodingFieldInfo &info : decodingFieldInfos()) {
        const bool strategy = !info.summaryChoices.empty();
        const QString part = summaryPart(info, options);
        if (part.isEmpty())
            continue;
        (strategy || info.summaryStrategySet() != engine::kEveryStrategy ? first : rest) << part;
    }
    return (first + rest).join(QStringLiteral(" · "));
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
