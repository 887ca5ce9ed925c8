// The Translate view's attention panel beyond the alignment, on the bundled Transformer (real
// plugin, real model): it lists the kinds the model has, switching to encoder self-attention
// translates again with every map and shows a source × source heatmap equal to what the engine's
// AttentionInspector gives the same model, decoder self-attention is masked (nothing above the
// diagonal), and the head grid shows every head of a layer, one click opening a head large; its
// selectors are as wide as their entries as drawn.
#include "app/core/appcontext.h"
#include "app/core/inference/inferenceworker.h"
#include "app/core/models/pluginregistry.h"
#include "app/gui/widgets/attentionpanel.h"
#include "app/gui/widgets/headgridwidget.h"
#include "app/gui/widgets/heatmapwidget.h"
#include "app/gui/views/translateview.h"
#include "engine/layers/attentioninspector.h"
#include "engine/translation/translationmodel.h"
#include "tests/support/appcontextutil.h"
#include "tests/support/testutil.h"

#include <QCheckBox>
#include <QComboBox>
#include <QScrollArea>
#include <QScrollBar>
#include <QSignalSpy>
#include <QStyle>
#include <QStyleOptionComboBox>
#include <QTest>

using namespace glosa;
using engine::AttentionKind;

class TestAttentionKinds : public QObject
{
    Q_OBJECT
private slots:
    void switchesKindsAndHeads()
    {
        test::BundledContext context;
        const auto info = context.catalog().find(QStringLiteral("transformer-en-es"));
        QVERIFY2(info && info->isValid(), "resources/models/transformer-en-es is missing");
        const int heads = info->manifest["hyperparameters"]["heads"].toInt();

        TranslateView view(context);
        view.setLiveTranslate(false);
        view.resize(1280, 800);
        view.show();
        QVERIFY(context.chooseModel(info->id));
        QTRY_VERIFY_WITH_TIMEOUT(context.workerFor(*info)->isModelLoaded(), 60000);

        QComboBox *kinds = view.attentionKindSelector();
        QVERIFY(kinds->isVisible());
        QCOMPARE(kinds->count(), 3);
        QCOMPARE(view.shownAttentionKind(), AttentionKind::Cross);

        QSignalSpy shown(&view, &TranslateView::translationShown);
        view.setSourceText(QStringLiteral("I would like a cup of coffee."));
        view.translateNow();
        QVERIFY(shown.wait(60000));
        // The alignment alone: no maps asked for.
        QVERIFY(view.shownHypothesis()->attentionMaps.isEmpty());
        const int S = int(view.result().sourceTokens.size());
        const int T = int(view.shownHypothesis()->tokens.size());
        QCOMPARE(view.heatmap()->rows(), T);
        QCOMPARE(view.heatmap()->columns(), S);

        // Encoder self-attention: translated again, with the maps.
        kinds->setCurrentIndex(kinds->findData(int(AttentionKind::EncoderSelf)));
        emit kinds->activated(kinds->currentIndex());
        QVERIFY(shown.wait(60000));
        QVERIFY(!view.shownHypothesis()->attentionMaps.isEmpty());
        QVERIFY(view.layerHeadSelector()->isVisible());
        QVERIFY(!view.alignmentSelector()->isVisible());
        QCOMPARE(view.layerHeadSelector()->currentData().toPoint(),
                 QPoint(0, engine::AlignmentSource::kAverageHeads));
        QCOMPARE(view.heatmap()->rows(), S);
        QCOMPARE(view.heatmap()->columns(), S);

        // The same numbers as the engine's inspector on the same model.
        QString error;
        const std::shared_ptr<engine::Model> model =
            ModelCatalog::load(*info, *context.plugins(), &error);
        QVERIFY2(model, qPrintable(error));
        auto *translation = dynamic_cast<engine::TranslationModel *>(model.get());
        QVERIFY(translation && translation->decoder().attentionInspector());
        std::vector<std::int32_t> source, target;
        for (const TokenSpan &t : view.result().sourceTokens)
            source.push_back(t.id);
        for (const TokenSpan &t : view.shownHypothesis()->tokens)
            target.push_back(t.id);
        const engine::AttentionMaps maps =
            translation->decoder().attentionInspector()->inspectAttention(source, target);
        const engine::Tensor expected =
            engine::attentionMap(maps.encoderSelf, 0, engine::AlignmentSource::kAverageHeads);
        float worst = 0.0f;
        for (int i = 0; i < S; ++i)
            for (int j = 0; j < S; ++j)
                worst = std::max(worst, std::abs(view.heatmap()->value(i, j) -
                                                 expected.data<float>()[i * S + j]));
        QVERIFY2(worst < 1e-6f, qPrintable(QString::number(worst)));

        // Decoder self-attention: the maps are there already; masked above the diagonal.
        kinds->setCurrentIndex(kinds->findData(int(AttentionKind::DecoderSelf)));
        emit kinds->activated(kinds->currentIndex());
        QCOMPARE(view.heatmap()->rows(), T);
        QCOMPARE(view.heatmap()->columns(), T);
        for (int i = 0; i < T; ++i) {
            float sum = 0.0f;
            for (int j = 0; j < T; ++j) {
                if (j > i)
                    QCOMPARE(view.heatmap()->value(i, j), 0.0f);
                sum += view.heatmap()->value(i, j);
            }
            QVERIFY(std::abs(sum - 1.0f) < 1e-4f);
        }

        // The head grid: every head of layer 1; clicking head 2 shows it large.
        view.allHeadsToggle()->setChecked(true);
        HeadGridWidget *grid = view.headGrid();
        QTRY_VERIFY(grid->isVisible());
        QVERIFY(!view.heatmap()->isVisible());
        QCOMPARE(grid->heads(), heads);
        QCOMPARE(grid->rows(), T);
        QCOMPARE(grid->columns(), T);
        // The grid fits its panel's width and scrolls down: every tile and
        // its "Head n" title lies inside the grid, which is no wider than the scroll area shows,
        // and what is below the panel is reached by the vertical scroll bar.
        auto *gridScroll = qobject_cast<QScrollArea *>(grid->parentWidget()->parentWidget());
        QVERIFY(gridScroll);
        QTRY_VERIFY(grid->height() >= grid->heightForWidth(grid->width()));
        QVERIFY(!gridScroll->horizontalScrollBar()->isVisible());
        QVERIFY(grid->width() <= gridScroll->viewport()->width());
        for (int h = 0; h < heads; ++h)
            QVERIFY2(grid->rect().contains(
                         grid->headRect(h).adjusted(0, -grid->fontMetrics().height() - 4, 0, 0)),
                     qPrintable(QStringLiteral("head %1 at %2,%3 %4x%5 in %6x%7")
                                    .arg(h)
                                    .arg(grid->headRect(h).x())
                                    .arg(grid->headRect(h).y())
                                    .arg(grid->headRect(h).width())
                                    .arg(grid->headRect(h).height())
                                    .arg(grid->width())
                                    .arg(grid->height())));
        QCOMPARE(gridScroll->verticalScrollBar()->isVisible(),
                 grid->height() > gridScroll->viewport()->height());
        QTest::mouseClick(grid, Qt::LeftButton, {}, grid->headRect(1).center());
        QVERIFY(!view.allHeadsToggle()->isChecked());
        QTRY_VERIFY(view.heatmap()->isVisible());
        QCOMPARE(view.layerHeadSelector()->currentData().toPoint(), QPoint(0, 1));
        const engine::Tensor head = engine::attentionMap(maps.decoderSelf, 0, 1);
        worst = 0.0f;
        for (int i = 0; i < T; ++i)
            for (int j = 0; j < T; ++j)
                worst = std::max(
                    worst, std::abs(view.heatmap()->value(i, j) - head.data<float>()[i * T + j]));
        QVERIFY2(worst < 1e-6f, qPrintable(QString::number(worst)));
    }

    // The RNN without attention (tests/data/parity/rnn-none, random weights): no kind to choose,
    // no alignment, and the panel says why instead of showing an empty matrix.
    void modelWithoutAttentionSaysSo()
    {
        AppContext context({QStringLiteral(GLOSA_BINARY_DIR "/plugins")},
                           {glosa::test::testDataDir() + QStringLiteral("/parity")});
        const auto info = context.catalog().find(QStringLiteral("parity-rnn-none"));
        QVERIFY2(info && info->isValid(), "tests/data/parity/rnn-none is missing");
        TranslateView view(context);
        view.setLiveTranslate(false);
        view.resize(1280, 800);
        view.show();
        QVERIFY(context.chooseModel(info->id));
        QTRY_VERIFY_WITH_TIMEOUT(context.workerFor(*info)->isModelLoaded(), 60000);
        QVERIFY(context.workerFor(*info)->attentionKinds().isEmpty());
        QVERIFY(!view.attentionKindSelector()->isVisible());

        QSignalSpy shown(&view, &TranslateView::translationShown);
        view.setSourceText(QStringLiteral("the cat"));
        view.translateNow();
        QVERIFY(shown.wait(60000));
        QVERIFY(view.shownHypothesis()->alignment.isEmpty());
        QCOMPARE(view.heatmap()->rows(), 0);
        QVERIFY(view.heatmap()->emptyMessage().contains(QStringLiteral("no attention")));
    }

    // Each selector is at least as wide as its widest entry as it is drawn: the entry's advance
    // with the style's frame and arrow. QComboBox's own hint holds the entries' ink, a pixel less
    // than the advance of "Layer 2 · mean of heads (default)" and of most Korean entries.
    void selectorsHoldTheirWidestEntry()
    {
        test::BundledContext context;
        QVERIFY2(context.chooseModel(QStringLiteral("transformer-en-es")),
                 "resources/models/transformer-en-es is missing");
        TranslateView view(context);
        view.setLiveTranslate(false);
        view.resize(1280, 800);
        view.show();
        QSignalSpy shown(&view, &TranslateView::translationShown);
        view.setSourceText(QStringLiteral("I would like a cup of coffee."));
        view.translateNow();
        QVERIFY(shown.wait(60000));
        QCoreApplication::sendPostedEvents(nullptr, QEvent::LayoutRequest);
        int checked = 0;
        for (QComboBox *box : {view.attentionKindSelector(), view.alignmentSelector()}) {
            QVERIFY2(box->isVisible() && box->count() > 0, "the Transformer has both selectors");
            const QFontMetrics fm = box->fontMetrics();
            int widest = 0;
            for (int i = 0; i < box->count(); ++i)
                widest = std::max(widest, fm.horizontalAdvance(box->itemText(i)));
            QStyleOptionComboBox option;
            option.initFrom(box);
            const int needed =
                box->style()
                    ->sizeFromContents(QStyle::CT_ComboBox, &option, QSize(widest, fm.height()), box)
                    .width();
            QVERIFY2(box->width() >= needed, qPrintable(QStringLiteral("%1 needs %2 px, has %3")
                                                            .arg(box->accessibleName())
                                                            .arg(needed)
                                                            .arg(box->width())));
            ++checked;
        }
        QCOMPARE(checked, 2);
    }
};

QTEST_MAIN(TestAttentionKinds)
#include "tst_attentionkinds.moc"
