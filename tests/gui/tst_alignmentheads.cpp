// The Translate view's attention layer/head selector on the bundled Transformer (real plugin,
// real model): it offers every layer's heads and their mean, starts on the model's default (mean
// of the penultimate layer's heads), and choosing a head re-translates so that the heatmap shows
// exactly that head's cross-attention, computed here by the same model loaded separately.
#include "app/core/appcontext.h"
#include "app/core/inference/inferenceworker.h"
#include "app/core/models/pluginregistry.h"
#include "app/core/inference/translationrunner.h"
#include "app/gui/widgets/heatmapwidget.h"
#include "app/gui/views/translateview.h"
#include "engine/translation/translationmodel.h"

#include "tests/support/appcontextutil.h"

#include <QComboBox>
#include <QPlainTextEdit>
#include <QSignalSpy>
#include <QTest>

using namespace glosa;

namespace {
QVector<float> heatmapValues(const HeatmapWidget &heatmap)
{
    QVector<float> values;
    for (int r = 0; r < heatmap.rows(); ++r)
        for (int c = 0; c < heatmap.columns(); ++c)
            values << heatmap.value(r, c);
    return values;
}
} // namespace

class TestAlignmentHeads : public QObject
{
    Q_OBJECT
private slots:
    void choosingAHeadShowsThatHeadsWeights()
    {
        test::BundledContext context;
        const auto info = context.catalog().find(QStringLiteral("transformer-en-es"));
        QVERIFY2(info && info->isValid(), "resources/models/transformer-en-es is missing");
        const int layers = info->manifest["hyperparameters"]["decoder_layers"].toInt();
        const int heads = info->manifest["hyperparameters"]["heads"].toInt();
        QVERIFY(layers >= 2 && heads >= 2);

        TranslateView view(context);
        view.setLiveTranslate(false);
        QVERIFY(context.chooseModel(info->id));
        QTRY_VERIFY_WITH_TIMEOUT(context.workerFor(*info)->isModelLoaded(), 60000);

        QComboBox *selector = view.alignmentSelector();
        QVERIFY(!selector->isHidden());
        QCOMPARE(selector->count(), layers * (heads + 1));
        // Documented default: the mean of the heads of the penultimate decoder layer.
        QCOMPARE(selector->currentData().toPoint(),
                 QPoint(layers - 2, engine::AlignmentSource::kAverageHeads));
        QVERIFY(selector->currentText().contains(QStringLiteral("default")));

        const QString text = QStringLiteral("I would like a cup of coffee.");
        QSignalSpy shown(&view, &TranslateView::translationShown);
        view.setSourceText(text);
        view.translateNow();
        QVERIFY(shown.wait(60000));
        const QVector<float> meanOfHeads = heatmapValues(*view.heatmap());
        const engine::DecodingOptions options = view.result().options;

        // Layer 1, head 2: the view re-translates and the heatmap follows.
        const QPoint choice(0, 1);
        selector->setCurrentIndex(selector->findData(choice));
        emit selector->activated(selector->currentIndex());
        QVERIFY(shown.wait(60000));
        const QVector<float> shownHead = heatmapValues(*view.heatmap());
        QVERIFY(shownHead != meanOfHeads);

        QString error;
        const std::shared_ptr<engine::Model> model =
            ModelCatalog::load(*info, *context.plugins(), &error);
        QVERIFY2(model, qPrintable(error));
        auto *translation = dynamic_cast<engine::TranslationModel *>(model.get());
        QVERIFY(translation);
        engine::AlignmentSource *source = translation->decoder().alignmentSource();
        QVERIFY(source);
        source->setAlignment(choice.x(), choice.y());
        const TranslationResult expected = runTranslation(model, text, options);
        QVERIFY(expected.best());
        QCOMPARE(view.shownHypothesis()->text, expected.best()->text);
        QCOMPARE(shownHead, expected.best()->alignment);
        QCOMPARE(view.heatmap()->rows(), int(expected.best()->tokens.size()));
        QCOMPARE(view.heatmap()->columns(), expected.best()->sourceCount);
    }
};

QTEST_MAIN(TestAlignmentHeads)
#include "tst_alignmentheads.moc"
