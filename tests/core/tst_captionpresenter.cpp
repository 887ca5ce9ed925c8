// CaptionPresenter without its view: the bundled captioner-en and English → Spanish Transformer
// (real plugins, real models, real worker threads), real photographs (tests/data/images) and a
// real SQLite history in a temporary folder. The expected caption and translation are computed
// here by the same models loaded separately, never written down. Every wait is on one of the
// presenter's own signals.
#include "app/core/appcontext.h"
#include "app/core/history/entrykinds.h"
#include "app/core/history/recorder.h"
#include "app/core/history/store.h"
#include "app/core/inference/translationrunner.h"
#include "app/core/models/modelcatalog.h"
#include "app/core/models/pluginregistry.h"
#include "app/core/presenters/captionpresenter.h"
#include "tests/support/appcontextutil.h"
#include "tests/support/testutil.h"

#include <QDir>
#include <QFile>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

#include <cmath>
#include <memory>

using namespace glosa;

namespace {

constexpr int kTimeoutMs = 60000;
const QString kAstronaut = QStringLiteral(GLOSA_TEST_DATA_DIR "/images/astronaut.jpg");
const QString kCat = QStringLiteral(GLOSA_TEST_DATA_DIR "/images/chelsea.jpg");
using Kind = CaptionPresenter::Status::Kind;
using Block = CaptionPresenter::TranslateBlock;

// Waits until the presenter's status is `kind`; false when it does not come.
bool waitForStatus(CaptionPresenter &presenter, Kind kind)
{
    QSignalSpy changed(&presenter, &CaptionPresenter::statusChanged);
    while (presenter.status().kind != kind)
        if (!changed.wait(kTimeoutMs))
            return false;
    return true;
}

// Waits for the next entry the presenter records; its id (0: none came).
qint64 nextRecorded(QSignalSpy &recorded)
{
    const qsizetype before = recorded.count();
    while (recorded.count() == before)
        if (!recorded.wait(kTimeoutMs))
            return 0;
    return recorded.last().at(0).toLongLong();
}

} // namespace

class TestCaptionPresenter : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        test::isolateAppState(m_dir.path(), m_dir.path(), QStringLiteral("tst_captionpresenter"));
        qputenv("XDG_CACHE_HOME", m_dir.filePath(QStringLiteral("cache")).toUtf8()); // pastes
        QVERIFY2(QFile::exists(kAstronaut) && QFile::exists(kCat), "tests/data/images is missing");
    }

    void init()
    {
        QString error;
        m_context = test::bundledContextWithHistory(m_dir, &error);
        QVERIFY2(m_context, qPrintable(error));
        QVERIFY2(m_context->chooseModel(QStringLiteral("transformer-en-es")),
                 "resources/models/transformer-en-es is missing");
        m_presenter.reset(new CaptionPresenter(*m_context));
        QVERIFY2(m_presenter->canCaption(), "resources/models/captioner-en is missing");
    }

    void cleanup()
    {
        m_presenter.reset();
        m_context.reset();
    }

    void captionsTheSelectedImageOnTheWorker()
    {
        CaptionPresenter &p = *m_presenter;
        QCOMPARE(p.captioner().model->id, QStringLiteral("captioner-en"));
        QCOMPARE(p.captionLanguage(), QStringLiteral("en"));
        QSignalSpy shown(&p, &CaptionPresenter::captionShown);
        QSignalSpy thumbnails(&p, &CaptionPresenter::thumbnailReady);
        p.addImages({kAstronaut, kCat});
        QCOMPARE(p.images(), (QStringList{kAstronaut, kCat}));
        QCOMPARE(p.currentImage(), 0); // the first added is captioned
        QCOMPARE(p.status().kind, Kind::Captioning);
        QVERIFY(p.result().text.isEmpty()); // on the worker's thread, not ours
        QVERIFY(shown.wait(kTimeoutMs));

        const CaptionResult result = p.result();
        QCOMPARE(result.imagePath, kAstronaut);
        QCOMPARE(result.modelId, QStringLiteral("captioner-en"));
        QCOMPARE(p.status().kind, Kind::Captioned);
        QCOMPARE(p.status().elapsedMs, result.elapsedMs);
        // Without a decoding panel the package's own decoding (beam 3 for captioner-en).
        const engine::DecodingOptions defaults = p.captionerDefaults();
        QCOMPARE(result.options.strategy, defaults.strategy);
        QCOMPARE(result.options.beamSize, defaults.beamSize);
        const CaptionResult expected = runCaption(loadCaptioner(), kAstronaut, result.options);
        QVERIFY(!expected.text.isEmpty());
        QCOMPARE(result.text, expected.text);
        QCOMPARE(result.attention, expected.attention);
        QCOMPARE(p.image().size(), QSize(512, 512)); // the photo as the model saw it

        // The attention of each word over MobileNetV2's 7 × 7 grid; the first word at first.
        const int cells = result.gridRows * result.gridCols;
        QCOMPARE(cells, 49);
        QCOMPARE(p.selectedWord(), 0);
        QCOMPARE(p.selectedAttention(), result.attention.mid(0, cells));
        const int last = int(result.tokens.size()) - 1;
        QSignalSpy selected(&p, &CaptionPresenter::wordSelected);
        p.selectWord(last);
        QCOMPARE(selected.count(), 1);
        QCOMPARE(p.selectedWord(), last);
        QCOMPARE(p.selectedAttention(), result.attention.mid(last * cells, cells));
        QVERIFY(p.selectedAttention() != result.attention.mid(0, cells));
        p.selectWord(last + 1); // no such word: nothing is shown
        QCOMPARE(p.selectedWord(), -1);
        QVERIFY(p.selectedAttention().isEmpty());

        // Thumbnails, made on the thread pool, fit the list's box.
        while (thumbnails.count() < 2)
            QVERIFY(thumbnails.wait(kTimeoutMs));
        for (const QString &path : {kAstronaut, kCat}) {
            const QImage thumbnail = p.thumbnail(path);
            QVERIFY(!thumbnail.isNull());
            QVERIFY(thumbnail.width() <= CaptionPresenter::kThumbnailSize.width());
            QVERIFY(thumbnail.height() <= CaptionPresenter::kThumbnailSize.height());
        }

        // The other photo, with the user's decoding (greedy).
        engine::DecodingOptions greedy = defaults;
        greedy.strategy = engine::SearchStrategy::Greedy;
        p.setOptionsSource([greedy] { return greedy; });
        p.selectImage(1);
        QVERIFY(shown.wait(kTimeoutMs));
        QCOMPARE(p.result().imagePath, kCat);
        QCOMPARE(p.result().options.strategy, engine::SearchStrategy::Greedy);
        QCOMPARE(p.result().text, runCaption(loadCaptioner(), kCat, greedy).text);
    }

    void recordsEachCaptionOnce()
    {
        CaptionPresenter &p = *m_presenter;
        HistoryStore *store = m_context->history()->store();
        QSignalSpy recorded(&p, &CaptionPresenter::entryRecorded);
        p.addImages({kCat});
        const qint64 id = nextRecorded(recorded); // the entry is made on the thread pool
        QVERIFY(id > 0);
        const CaptionResult original = p.result();
        const std::optional<HistoryEntry> entry = store->entry(id);
        QVERIFY(entry);
        QCOMPARE(entry->kind, HistoryKind::Caption);
        QCOMPARE(entry->imagePath, kCat);
        QCOMPARE(entry->imageHash.size(), 64);
        QVERIFY(!entry->thumbnailPng.isEmpty());
        QCOMPARE(entry->bestOutput()->text, original.text);
        QCOMPARE(entry->bestOutput()->alignment.rows, int(original.tokens.size()));
        QCOMPARE(entry->bestOutput()->alignment.cols, original.gridRows * original.gridCols);

        // Captioning the same image with the same settings again repeats that entry.
        p.captionCurrent();
        QCOMPARE(nextRecorded(recorded), id);
        QCOMPARE(store->count(), 1);
        p.addImages({kAstronaut});
        const qint64 second = nextRecorded(recorded);
        QVERIFY(second > id);
        QCOMPARE(store->count(), 2);

        // The first entry opened from the history: shown as stored, its image not added again,
        // and captioning it again records nothing new.
        p.historyEntryOpened(*entry);
        p.showStoredCaption(captionResultFromHistory(*entry), QImage::fromData(entry->thumbnailPng),
                            QStringLiteral("From the history."));
        QCOMPARE(p.images().count(kCat), 1);
        QCOMPARE(p.currentImage(), int(p.images().indexOf(kCat)));
        QCOMPARE(p.result().text, original.text);
        QCOMPARE(p.result().attention.size(), original.attention.size());
        QCOMPARE(p.image().size(), original.image.size());
        QCOMPARE(p.status().kind, Kind::Stored);
        QCOMPARE(p.status().text, QStringLiteral("From the history."));
        QCOMPARE(p.selectedWord(), 0);
        p.captionCurrent();
        QCOMPARE(nextRecorded(recorded), id);
        QCOMPARE(store->count(), 2);
    }

    void translatesTheCaptionWhenTheModelReadsItsLanguage()
    {
        CaptionPresenter &p = *m_presenter;
        QCOMPARE(p.translateBlock(), Block::NoCaption);
        QSignalSpy shown(&p, &CaptionPresenter::captionShown);
        p.addImages({kCat});
        QVERIFY(shown.wait(kTimeoutMs));
        QCOMPARE(p.translateBlock(), Block::None);

        QSignalSpy translated(&p, &CaptionPresenter::captionTranslated);
        QSignalSpy recorded(&p, &CaptionPresenter::entryRecorded);
        nextRecorded(recorded); // the caption's own entry
        p.translateCaption();
        QVERIFY(p.isTranslating());
        QVERIFY(translated.wait(kTimeoutMs));
        QVERIFY(!p.isTranslating());
        const ModelInfo spanish = *m_context->catalog().find(QStringLiteral("transformer-en-es"));
        QString error;
        const std::shared_ptr<engine::Model> model =
            ModelCatalog::load(spanish, *m_context->plugins(), &error);
        QVERIFY2(model, qPrintable(error));
        const TranslationResult expected =
            runTranslation(model, p.result().text, spanish.decodingDefaults());
        QVERIFY(expected.best());
        QCOMPARE(p.translation(), expected.best()->text);
        QVERIFY(p.translation() != p.result().text);
        // Recorded as a translation, like the Translate tab's.
        const qint64 id = recorded.last().at(0).toLongLong();
        QVERIFY(id > 0);
        const std::optional<HistoryEntry> entry = m_context->history()->store()->entry(id);
        QCOMPARE(entry->kind, HistoryKind::Translation);
        QCOMPARE(entry->inputText, p.result().text);
        QCOMPARE(entry->bestOutput()->text, p.translation());

        // A model that does not read English cannot translate the captions.
        QSignalSpy blockChanged(&p, &CaptionPresenter::translateBlockChanged);
        QVERIFY2(m_context->chooseModel(QStringLiteral("transformer-es-en")),
                 "resources/models/transformer-es-en is missing");
        QVERIFY(!blockChanged.isEmpty());
        QCOMPARE(p.translateBlock(), Block::OtherLanguage);
        p.translateCaption();
        QVERIFY(!p.isTranslating());
        QVERIFY(m_context->chooseModel(spanish.id));
        QCOMPARE(p.translateBlock(), Block::None);

        // A new caption: the translation of the old one is gone.
        p.captionCurrent();
        QVERIFY(p.translation().isEmpty());
        QCOMPARE(p.translateBlock(), Block::NoCaption);
        QVERIFY(shown.wait(kTimeoutMs));
    }

    // A file that is not an image: its failure leaves nothing of the previous photo behind, and
    // "Translate caption" has nothing to translate instead of the old caption.
    void aFailedImageClearsTheCaption()
    {
        CaptionPresenter &p = *m_presenter;
        QSignalSpy shown(&p, &CaptionPresenter::captionShown);
        QSignalSpy recorded(&p, &CaptionPresenter::entryRecorded);
        p.addImages({kCat});
        QVERIFY(shown.wait(kTimeoutMs));
        QVERIFY(!p.result().text.isEmpty());
        QVERIFY(nextRecorded(recorded) > 0);

        const QString broken = m_dir.filePath(QStringLiteral("holiday.jpg"));
        QFile file(broken);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write("this is not a JPEG\n");
        file.close();
        p.addImages({broken});
        QVERIFY(waitForStatus(p, Kind::Failed));
        QVERIFY2(!p.status().text.isEmpty(), "the worker's message");
        QVERIFY(p.result().text.isEmpty());
        QVERIFY(p.result().tokens.isEmpty());
        QVERIFY(p.image().isNull());
        QCOMPARE(p.selectedWord(), -1);
        QVERIFY(p.selectedAttention().isEmpty());
        QCOMPARE(p.translateBlock(), Block::NoCaption);
        p.translateCaption(); // does nothing
        QVERIFY(!p.isTranslating());
        QCOMPARE(shown.count(), 1);
        QCOMPARE(recorded.count(), 1); // a failure is not recorded
        QCOMPARE(m_context->history()->store()->count(), 1);
    }

    void aPastedImageIsSavedAndCaptioned()
    {
        CaptionPresenter &p = *m_presenter;
        p.addPastedImage(QImage());
        QCOMPARE(p.status().kind, Kind::NoClipboardImage);
        QVERIFY(p.images().isEmpty());

        QSignalSpy shown(&p, &CaptionPresenter::captionShown);
        p.addPastedImage(QImage(kCat));
        QCOMPARE(p.images().size(), 1);
        const QString saved = p.images().first();
        QVERIFY2(saved.startsWith(m_dir.filePath(QStringLiteral("cache"))), qPrintable(saved));
        QVERIFY(saved.endsWith(QStringLiteral(".png")));
        QCOMPARE(QImage(saved).size(), QImage(kCat).size());
        QVERIFY(shown.wait(kTimeoutMs));
        QCOMPARE(p.result().imagePath, saved);
        QVERIFY(!p.result().text.isEmpty());
    }

    // Photographs of the captioner's own domain (Flickr8k's held-out part, /work/shared): each
    // selected image's caption is the model's own, and each word's attention is a distribution
    // over the grid.
    void captionsFlickr8kPhotos()
    {
        GLOSA_REQUIRE_SHARED_DATA(QStringLiteral("flickr8k/dev.tsv"));
        const QString folder = test::sharedDataDir() + QStringLiteral("/flickr8k/");
        QFile tsv(folder + QStringLiteral("dev.tsv"));
        QVERIFY(tsv.open(QIODevice::ReadOnly | QIODevice::Text));
        QStringList photos;
        while (photos.size() < 3 && !tsv.atEnd()) {
            const QString path = folder + QStringLiteral("images/") +
                                 QString::fromUtf8(tsv.readLine()).section(QLatin1Char('\t'), 0, 0);
            if (!photos.contains(path) && QFile::exists(path))
                photos << path;
        }
        QCOMPARE(photos.size(), 3);
        CaptionPresenter &p = *m_presenter;
        QSignalSpy shown(&p, &CaptionPresenter::captionShown);
        p.addImages(photos);
        const std::shared_ptr<engine::Model> model = loadCaptioner();
        QVERIFY(model);
        for (int i = 0; i < photos.size(); ++i) {
            if (i > 0)
                p.selectImage(i);
            QVERIFY(shown.wait(kTimeoutMs));
            const CaptionResult &result = p.result();
            QCOMPARE(result.imagePath, photos[i]);
            QCOMPARE(result.text, runCaption(model, photos[i], result.options).text);
            for (int word = 0; word < result.tokens.size(); ++word) {
                p.selectWord(word);
                double sum = 0;
                for (const float w : p.selectedAttention())
                    sum += w;
                QVERIFY2(std::abs(sum - 1.0) < 1e-3, qPrintable(QString::number(sum)));
            }
        }
    }

    // Only translation models installed: the tab says there is no captioner instead of trying.
    void withoutACaptionerNothingIsAsked()
    {
        QTemporaryDir models;
        QVERIFY(QFile::link(QStringLiteral(GLOSA_SOURCE_DIR "/resources/models/transformer-en-es"),
                            models.filePath(QStringLiteral("transformer-en-es"))));
        AppContext context({QStringLiteral(GLOSA_BINARY_DIR "/plugins")}, {models.path()});
        CaptionPresenter p(context);
        QVERIFY(!p.canCaption());
        QVERIFY(!p.captioner().isReady());
        QCOMPARE(p.status().kind, Kind::Unavailable);
        QSignalSpy shown(&p, &CaptionPresenter::captionShown);
        p.addImages({kCat});
        QCOMPARE(p.currentImage(), 0);
        QCOMPARE(p.status().kind, Kind::Unavailable);
        QVERIFY(p.result().text.isEmpty());
        QCOMPARE(p.translateBlock(), Block::NoCaption);
        QVERIFY(shown.isEmpty());
    }

private:
    std::shared_ptr<engine::Model> loadCaptioner()
    {
        QString error;
        const std::shared_ptr<engine::Model> model =
            ModelCatalog::load(*m_presenter->captioner().model, *m_context->plugins(), &error);
        if (!model)
            qWarning() << error;
        return model;
    }

    QTemporaryDir m_dir;
    std::unique_ptr<AppContext> m_context;
    std::unique_ptr<CaptionPresenter> m_presenter;
};

QTEST_MAIN(TestCaptionPresenter)
#include "tst_captionpresenter.moc"
