// The Caption view on the real captioner plugin and the bundled captioner-en model, with real
// photographs (tests/data/images): dropping files shows thumbnails and the caption its presenter
// got from the worker thread; the word buttons and the slider scrub the attention overlay;
// "Translate caption" is enabled only for a model that reads the captions. What is captioned and
// translated, and what is recorded, is tested on CaptionPresenter (tests/core).
#include "app/core/appcontext.h"
#include "app/core/inference/inferenceworker.h"
#include "app/core/models/modelcatalog.h"
#include "app/core/models/pluginregistry.h"
#include "app/gui/views/captionview.h"

#include "tests/support/appcontextutil.h"

#include <QApplication>
#include <QLabel>
#include <QListWidget>
#include <QMimeData>
#include <QPushButton>
#include <QSignalSpy>
#include <QSlider>
#include <QTemporaryDir>
#include <QTest>
#include <QToolButton>
#include <QUrl>

using namespace glosa;

class TestCaptionView : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase()
    {
        m_context = std::make_unique<test::BundledContext>();
        const auto captioner = m_context->catalog().find(QStringLiteral("captioner-en"));
        const auto translator = m_context->catalog().find(QStringLiteral("transformer-en-es"));
        QVERIFY2(captioner && captioner->isValid(), "resources/models/captioner-en is missing");
        QVERIFY2(translator && translator->isValid(), "resources/models/transformer-en-es is missing");
        m_captionerInfo = *captioner;
        m_translatorInfo = *translator;
    }

    void droppingPhotosCaptionsThemOnTheWorker()
    {
        CaptionView view(*m_context);
        view.resize(1200, 800);
        // The context chose the captioner (the only one); the translator is chosen here.
        QVERIFY(m_context->chooseModel(m_translatorInfo.id));
        InferenceWorker &captioner = *m_context->workerFor(m_captionerInfo);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));

        const QString astronaut = QStringLiteral(GLOSA_TEST_DATA_DIR "/images/astronaut.jpg");
        const QString cat = QStringLiteral(GLOSA_TEST_DATA_DIR "/images/chelsea.jpg");
        QMimeData mime;
        mime.setUrls({QUrl::fromLocalFile(astronaut), QUrl::fromLocalFile(cat)});
        QSignalSpy shown(&view, &CaptionView::captionShown);
        QDragEnterEvent enter(QPoint(400, 300), Qt::CopyAction, &mime, Qt::LeftButton,
                              Qt::NoModifier);
        QApplication::sendEvent(&view, &enter);
        QVERIFY(enter.isAccepted());
        QDropEvent drop(QPointF(400, 300), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
        QApplication::sendEvent(&view, &drop);

        // The drop returns at once: the caption is computed on the worker's thread, not ours.
        QVERIFY(view.captionText().isEmpty());
        QVERIFY(captioner.isBusy());
        QCOMPARE(view.images(), (QStringList{astronaut, cat}));
        for (int i = 0; i < 2; ++i) // made on the thread pool
            QTRY_VERIFY(!view.thumbnails()->item(i)->icon().isNull());
        QTRY_COMPARE_WITH_TIMEOUT(shown.count(), 1, 60000);

        const CaptionResult result = view.result(); // a copy: the next caption replaces it
        QCOMPARE(result.imagePath, astronaut);
        QVERIFY(!result.text.isEmpty());
        const QList<QLabel *> labels = view.findChildren<QLabel *>();
        QVERIFY(std::any_of(labels.begin(), labels.end(),
                            [&](const QLabel *label) { return label->text() == result.text; }));
        // The view asked for the decoding its panel shows (the package's: beam 3).
        QCOMPARE(result.options.strategy, m_captionerInfo.decodingDefaults().strategy);
        QCOMPARE(result.options.beamSize, m_captionerInfo.decodingDefaults().beamSize);

        // Scrubbing a word shows that word's attention row over the image; blend is adjustable.
        const int cells = result.gridRows * result.gridCols;
        QCOMPARE(view.imageWidget()->image().size(), QSize(512, 512)); // not the thumbnail
        QCOMPARE(view.imageWidget()->attention(), result.attention.mid(0, cells));
        const int word = int(result.tokens.size()) - 1;
        auto *slider = view.findChild<QSlider *>(QStringLiteral("wordSlider"));
        QVERIFY(slider);
        slider->setValue(word);
        QCOMPARE(view.presenter()->selectedWord(), word);
        QCOMPARE(view.imageWidget()->attention(), result.attention.mid(word * cells, cells));
        QVERIFY(view.imageWidget()->attention() != result.attention.mid(0, cells));
        // The word buttons: one per token, the selected one checked; a click selects its word.
        QList<QToolButton *> words;
        for (QToolButton *button : view.findChildren<QToolButton *>())
            if (button->property("token").isValid())
                words << button;
        QCOMPARE(words.size(), result.tokens.size());
        QVERIFY(words[word]->isChecked() && !words[0]->isChecked());
        QTest::mouseClick(words[0], Qt::LeftButton);
        QCOMPARE(slider->value(), 0);
        QCOMPARE(view.imageWidget()->attention(), result.attention.mid(0, cells));
        view.blendSlider()->setValue(25);
        QCOMPARE(view.imageWidget()->blend(), 0.25);

        // Translate caption: the label shows the presenter's translation.
        QSignalSpy translated(&view, &CaptionView::captionTranslated);
        auto *translate = view.findChild<QPushButton *>(QStringLiteral("translateCaption"));
        QVERIFY(translate->isEnabled());
        QTest::mouseClick(translate, Qt::LeftButton);
        QVERIFY(translated.wait(60000));
        QVERIFY(!view.translatedCaption().isEmpty());
        QVERIFY(std::any_of(labels.begin(), labels.end(), [&](const QLabel *label) {
            return label->text() == view.translatedCaption();
        }));
        qInfo() << "caption:" << view.captionText() << "→" << view.translatedCaption();

        // A model that does not read English cannot translate the captions.
        QVERIFY2(m_context->chooseModel(QStringLiteral("transformer-es-en")),
                 "resources/models/transformer-es-en is missing");
        QVERIFY(!translate->isEnabled());
        QVERIFY(translate->toolTip().contains(QStringLiteral("English")));
        QVERIFY(m_context->chooseModel(m_translatorInfo.id));
        QVERIFY(translate->isEnabled());

        // The other photo: selecting its thumbnail captions it.
        view.thumbnails()->setCurrentRow(1);
        QCOMPARE(view.presenter()->currentImage(), 1);
        QVERIFY(shown.wait(60000));
        QCOMPARE(view.result().imagePath, cat);
        QVERIFY(view.translatedCaption().isEmpty());
        // And the presenter's choice is the list's: a stored caption of the first photo.
        view.showStoredCaption(result, QImage(), QStringLiteral("From the history."));
        QCOMPARE(view.thumbnails()->currentRow(), 0);
        QCOMPARE(view.thumbnails()->count(), 2);
        QCOMPARE(view.captionText(), result.text);
    }

    // A file that is not an image: its failure leaves no caption of the previous photo behind,
    // and "Translate caption" is disabled instead of translating that old caption.
    void aFailedImageClearsTheCaption()
    {
        CaptionView view(*m_context);
        QVERIFY(m_context->chooseModel(m_translatorInfo.id));
        InferenceWorker &captioner = *m_context->workerFor(m_captionerInfo);
        InferenceWorker &translator = *m_context->workerFor(m_translatorInfo);
        QSignalSpy shown(&view, &CaptionView::captionShown);
        view.addImages({QStringLiteral(GLOSA_TEST_DATA_DIR "/images/chelsea.jpg")});
        QTRY_COMPARE_WITH_TIMEOUT(shown.count(), 1, 60000);
        QTRY_VERIFY_WITH_TIMEOUT(translator.isModelLoaded(), 60000);
        auto *translate = view.findChild<QPushButton *>(QStringLiteral("translateCaption"));
        QVERIFY(!view.captionText().isEmpty());
        QVERIFY(translate->isEnabled());

        QTemporaryDir dir;
        const QString broken = dir.filePath(QStringLiteral("holiday.jpg"));
        QFile file(broken);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write("this is not a JPEG\n");
        file.close();
        view.addImages({broken});
        QVERIFY(captioner.isBusy());
        // The failure is reported before the worker says it is idle (both queued, in order).
        QTRY_VERIFY_WITH_TIMEOUT(!captioner.isBusy(), 60000);
        QVERIFY2(view.captionText().isEmpty(), qPrintable(view.captionText()));
        QVERIFY(view.result().tokens.isEmpty());
        QVERIFY(view.imageWidget()->attention().isEmpty());
        QVERIFY(!translate->isEnabled());
        view.translateCaption(); // the shortcut, too, does nothing
        QVERIFY(view.translatedCaption().isEmpty());
        QCOMPARE(shown.count(), 1);
        const QList<QLabel *> labels = view.findChildren<QLabel *>();
        QVERIFY(std::any_of(labels.begin(), labels.end(), [](const QLabel *label) {
            return label->text().startsWith(QStringLiteral("Captioning failed"));
        }));
    }

private:
    std::unique_ptr<AppContext> m_context;
    ModelInfo m_captionerInfo;
    ModelInfo m_translatorInfo;
};

QTEST_MAIN(TestCaptionView)
#include "tst_captionview.moc"
