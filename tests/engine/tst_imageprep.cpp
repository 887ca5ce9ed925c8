// engine/vision/imageprep.h: the resize against a plain restatement of PIL's bilinear filter and
// against PIL's own output, the normalisation, and prepareRgb's refusals.
#include "engine/vision/imageprep.h"
#include "tests/support/testutil.h"

#include <QtTest>

#include <cmath>
#include <fstream>
#include <iterator>
#include <random>

using namespace glosa::engine;

namespace {

std::vector<std::uint8_t> readBytes(const QString &path)
{
    std::ifstream in(path.toStdString(), std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

std::vector<std::uint8_t> randomImage(int width, int height, unsigned seed)
{
    std::mt19937 rng(seed);
    std::vector<std::uint8_t> rgb(std::size_t(width) * height * 3);
    for (std::uint8_t &value : rgb)
        value = static_cast<std::uint8_t>(rng() & 0xff);
    return rgb;
}

// One axis of PIL's bilinear resize, written out: output x is the normalised triangle-weighted
// sum over every input position (the weight is zero outside the support), rounded to 8 bits.
// `other` positions lie across the axis; `horizontal` says which axis it is.
void resizeAxis(const std::vector<std::uint8_t> &in, std::vector<std::uint8_t> &out, int inSize,
                int outSize, int other, bool horizontal)
{
    const double scale = double(inSize) / outSize;
    const double filterScale = std::max(scale, 1.0);
    for (int o = 0; o < other; ++o)
        for (int x = 0; x < outSize; ++x) {
            const double center = (x + 0.5) * scale;
            std::vector<double> weights(inSize);
            double total = 0.0;
            for (int i = 0; i < inSize; ++i) {
                const double d = std::abs((i + 0.5 - center) / filterScale);
                weights[i] = d < 1.0 ? 1.0 - d : 0.0;
                total += weights[i];
            }
            for (int ch = 0; ch < 3; ++ch) {
                double value = 0.0;
                for (int i = 0; i < inSize; ++i) {
                    const std::size_t at = horizontal ? (std::size_t(o) * inSize + i) * 3 + ch
                                                      : (std::size_t(i) * other + o) * 3 + ch;
                    value += weights[i] / total * in[at];
                }
                const std::size_t to = horizontal ? (std::size_t(o) * outSize + x) * 3 + ch
                                                  : (std::size_t(x) * other + o) * 3 + ch;
                out[to] = static_cast<std::uint8_t>(std::clamp(std::lround(value), 0L, 255L));
            }
        }
}

std::vector<std::uint8_t> referenceResize(const std::vector<std::uint8_t> &rgb, int width,
                                          int height, int outWidth, int outHeight)
{
    std::vector<std::uint8_t> horizontal(std::size_t(outWidth) * height * 3);
    resizeAxis(rgb, horizontal, width, outWidth, height, true);
    std::vector<std::uint8_t> out(std::size_t(outWidth) * outHeight * 3);
    resizeAxis(horizontal, out, height, outHeight, outWidth, false);
    return out;
}

} // namespace

class TestImagePrep : public QObject
{
    Q_OBJECT

private slots:
    void resizeMatchesReference_data()
    {
        QTest::addColumn<int>("width");
        QTest::addColumn<int>("height");
        QTest::addColumn<int>("outWidth");
        QTest::addColumn<int>("outHeight");
        QTest::newRow("upscale") << 97 << 61 << 224 << 224;
        QTest::newRow("downscale") << 320 << 240 << 224 << 224;
        QTest::newRow("down and up") << 300 << 50 << 100 << 120;
        QTest::newRow("odd factors") << 7 << 5 << 13 << 3;
        QTest::newRow("one pixel") << 1 << 1 << 4 << 3;
        QTest::newRow("same size") << 31 << 17 << 31 << 17;
    }

    void resizeMatchesReference()
    {
        QFETCH(int, width);
        QFETCH(int, height);
        QFETCH(int, outWidth);
        QFETCH(int, outHeight);
        const auto rgb = randomImage(width, height, unsigned(width * 1000 + height));
        const auto ours = vision::resizeBilinear(rgb.data(), width, height, outWidth, outHeight);
        QCOMPARE(ours, referenceResize(rgb, width, height, outWidth, outHeight));
    }

    // PIL's own output (Image.resize((224, 224), BILINEAR)) for the tiny captioner's test image.
    void resizeMatchesPil()
    {
        const QString dir = glosa::test::testDataDir() + QStringLiteral("/parity/captioner-tiny");
        const auto small = readBytes(dir + QStringLiteral("/image-97x61.rgb"));
        const auto pil = readBytes(dir + QStringLiteral("/image-97x61-resized-224.rgb"));
        QCOMPARE(small.size(), std::size_t(97 * 61 * 3));
        const auto ours = vision::resizeBilinear(small.data(), 97, 61, 224, 224);
        QCOMPARE(ours.size(), pil.size());
        int worst = 0;
        for (std::size_t i = 0; i < ours.size(); ++i)
            worst = std::max(worst, std::abs(int(ours[i]) - int(pil[i])));
        QVERIFY2(worst <= 1, qPrintable(QStringLiteral("max |ours - PIL| = %1").arg(worst)));
    }

    // prepareRgb = resize, then (x - 128) / 128 in planar [1, 3, H, W].
    void prepareResizesAndNormalises()
    {
        const auto rgb = randomImage(50, 40, 7);
        const Tensor x = vision::prepareRgb(rgb.data(), 50, 40, 24, 16);
        QCOMPARE(x.shape(), (Shape{1, 3, 16, 24}));
        const auto resized = vision::resizeBilinear(rgb.data(), 50, 40, 24, 16);
        for (int y = 0; y < 16; ++y)
            for (int xx = 0; xx < 24; ++xx)
                for (int ch = 0; ch < 3; ++ch)
                    QCOMPARE(x.data<float>()[(ch * 16 + y) * 24 + xx],
                             (float(resized[(y * 24 + xx) * 3 + ch]) - 128.0f) / 128.0f);
    }

    void prepareRefusesEmptyImages()
    {
        const std::uint8_t pixel[3] = {0, 0, 0};
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, vision::prepareRgb(pixel, 0, 1, 4, 4));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, vision::prepareRgb(pixel, 1, -1, 4, 4));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, vision::prepareRgb(nullptr, 1, 1, 4, 4));
    }
};

QTEST_APPLESS_MAIN(TestImagePrep)
#include "tst_imageprep.moc"
