// MobileNetV2 end to end against the PyTorch float32 test vectors in
// shared/data/mobilenet_v2/testvectors: preprocessing, feature maps (14×14×96, 7×7×320,
// 7×7×1280, ...), logits and probabilities within the manifest's tolerances, identical top-5.
#include "engine/safetensors.h"
#include "engine/vision/imageprep.h"
#include "engine/vision/mobilenetv2.h"

#include "tests/support/testutil.h"

#include <QtTest>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <numeric>

using namespace glosa::engine;

namespace {

const QString kModelDir = QStringLiteral("mobilenet_v2");

std::string modelPath(const char *file)
{
    return (glosa::test::sharedDataDir() + QLatin1Char('/') + kModelDir + QLatin1Char('/') +
            QLatin1String(file))
        .toStdString();
}

nlohmann::json readJson(const std::string &path)
{
    std::ifstream in(path);
    return nlohmann::json::parse(in);
}

std::vector<char> readBytes(const std::string &path)
{
    std::ifstream in(path, std::ios::binary);
    return std::vector<char>(std::istreambuf_iterator<char>(in), {});
}

Tensor readFloats(const std::string &path, const Shape &shape)
{
    const std::vector<char> bytes = readBytes(path);
    if (bytes.size() != static_cast<std::size_t>(shapeNumel(shape)) * sizeof(float))
        throw std::runtime_error(path + ": size " + std::to_string(bytes.size()) +
                                 " does not match " + shapeToString(shape));
    return Tensor::fromFloats(shape, reinterpret_cast<const float *>(bytes.data()));
}

std::vector<int> topK(const Tensor &logits, int k)
{
    std::vector<int> idx(static_cast<std::size_t>(logits.numel()));
    std::iota(idx.begin(), idx.end(), 0);
    const float *p = logits.data<float>();
    std::partial_sort(idx.begin(), idx.begin() + k, idx.end(),
                      [p](int a, int b) { return p[a] > p[b]; });
    idx.resize(k);
    return idx;
}

// Largest violation of |out - ref| <= atol + rtol·|ref| (<= 0 means within tolerance) and the
// largest absolute difference.
struct Deviation
{
    double excess = -INFINITY;
    double maxAbs = 0.0;
};

Deviation deviation(const Tensor &out, const Tensor &ref, double atol, double rtol)
{
    Deviation d;
    const float *po = out.data<float>(), *pr = ref.data<float>();
    for (std::int64_t i = 0; i < ref.numel(); ++i) {
        const double diff = std::fabs(static_cast<double>(po[i]) - pr[i]);
        d.maxAbs = std::max(d.maxAbs, std::isnan(diff) ? INFINITY : diff);
        d.excess = std::max(d.excess, diff - (atol + rtol * std::fabs(pr[i])));
    }
    return d;
}

} // namespace

class TestMobileNet : public QObject
{
    Q_OBJECT

    std::unique_ptr<vision::MobileNetV2> m_net;
    nlohmann::json m_manifest;

    vision::MobileNetV2 &net()
    {
        if (!m_net)
            m_net = std::make_unique<vision::MobileNetV2>(vision::MobileNetV2::fromFiles(
                modelPath("config.json"), modelPath("model.safetensors")));
        return *m_net;
    }

private slots:
    void initTestCase()
    {
        GLOSA_REQUIRE_SHARED_DATA(kModelDir + QStringLiteral("/testvectors/manifest.json"));
        m_manifest = readJson(modelPath("testvectors/manifest.json"));
    }

    void matchesTestVectors_data()
    {
        QTest::addColumn<QString>("image");
        for (const auto &[name, entry] : m_manifest.at("images").items())
            QTest::newRow(name.c_str()) << QString::fromStdString(name);
    }
    void matchesTestVectors()
    {
        QFETCH(QString, image);
        const auto &entry = m_manifest.at("images").at(image.toStdString());
        const auto &files = entry.at("files");
        const auto &tol = m_manifest.at("recommended_tolerance");
        const std::string dir = modelPath("testvectors/");

        // Preprocessing reproduces the stored float input exactly.
        const auto &u8 = files.at("input_u8");
        const Shape u8Shape = u8.at("shape").get<Shape>(); // [1, H, W, 3]
        const std::vector<char> pixels = readBytes(dir + u8.at("file").get<std::string>());
        QCOMPARE(static_cast<std::int64_t>(pixels.size()), shapeNumel(u8Shape));
        const Tensor input = vision::preprocessRgb(
            reinterpret_cast<const std::uint8_t *>(pixels.data()), u8Shape[2], u8Shape[1]);
        const Tensor storedInput = readFloats(dir + files.at("input").at("file").get<std::string>(),
                                              files.at("input").at("shape").get<Shape>());
        QCOMPARE(deviation(input, storedInput, 0, 0).maxAbs, 0.0);

        // Every stored activation, requested by its tensor name (aliases are tested below) and
        // compared in NCHW.
        std::vector<std::string> keys, tensors;
        for (const auto &[key, f] : files.items())
            if (f.contains("tensor") && key != "input" && key != "logits" &&
                key != "probabilities") {
                keys.push_back(key);
                tensors.push_back(f.at("tensor").get<std::string>());
            }
        for (const char *required : {"stride16_14x14x96", "stride32_7x7x1280"})
            QVERIFY2(std::find(keys.begin(), keys.end(), required) != keys.end(), required);
        const auto result = net()(input, tensors);

        for (std::size_t i = 0; i < keys.size(); ++i) {
            const std::string &key = keys[i];
            const auto &f = files.at(key);
            const Tensor ref =
                readFloats(dir + f.at("file").get<std::string>(), f.at("shape").get<Shape>());
            const Tensor &out = result.features.at(tensors[i]);
            QCOMPARE(out.shape(), ref.shape());
            const auto d = deviation(out, ref, tol.at("feature_maps").at("atol").get<double>(),
                                     tol.at("feature_maps").at("rtol").get<double>());
            qInfo("%s %s: max abs diff %.3g", qPrintable(image), key.c_str(), d.maxAbs);
            QVERIFY2(d.excess <= 0, qPrintable(QStringLiteral("%1: max abs diff %2 exceeds "
                                                              "tolerance")
                                                   .arg(QString::fromStdString(key))
                                                   .arg(d.maxAbs)));
        }
        for (const char *key : {"logits", "probabilities"}) {
            const auto &f = files.at(key);
            const Tensor ref =
                readFloats(dir + f.at("file").get<std::string>(), f.at("shape").get<Shape>());
            const Tensor &out = std::string(key) == "logits" ? result.logits : result.probabilities;
            QCOMPARE(out.shape(), ref.shape());
            const auto d = deviation(out, ref, tol.at(key).at("atol").get<double>(),
                                     tol.at(key).at("rtol").get<double>());
            qInfo("%s %s: max abs diff %.3g", qPrintable(image), key, d.maxAbs);
            QVERIFY2(d.excess <= 0, qPrintable(QStringLiteral("%1: max abs diff %2 exceeds "
                                                              "tolerance")
                                                   .arg(QLatin1String(key))
                                                   .arg(d.maxAbs)));
        }
        // Top-5 identical to the float reference's, in order.
        std::vector<int> expectedTop5;
        for (const auto &t : entry.at("float_top5"))
            expectedTop5.push_back(t.at("index").get<int>());
        QCOMPARE(topK(result.logits, 5), expectedTop5);
    }

    void featureLayoutsAgree()
    {
        const Tensor input =
            readFloats(modelPath("testvectors/parrot/input.f32.bin"), {1, 3, 224, 224});
        const auto nchw = net()(input, {"stride32_7x7x1280", "Conv_1"});
        const auto nhwc = net()(input, {"stride32_7x7x1280"}, ops::Layout::NHWC);
        const Tensor &a = nchw.features.at("stride32_7x7x1280");
        const Tensor &b = nhwc.features.at("stride32_7x7x1280");
        QCOMPARE(b.shape(), (Shape{1, 7, 7, 1280}));
        QCOMPARE(deviation(ops::nhwcToNchw(b), a, 0, 0).maxAbs, 0.0);
        // The alias and the tensor name are the same map.
        QCOMPARE(deviation(nchw.features.at("Conv_1"), a, 0, 0).maxAbs, 0.0);
    }

    void batchOfTwoMatchesSingles()
    {
        const Tensor a =
            readFloats(modelPath("testvectors/parrot/input.f32.bin"), {1, 3, 224, 224});
        const Tensor b =
            readFloats(modelPath("testvectors/hot_dog/input.f32.bin"), {1, 3, 224, 224});
        Tensor both({2, 3, 224, 224});
        std::copy_n(a.data<float>(), a.numel(), both.data<float>());
        std::copy_n(b.data<float>(), b.numel(), both.data<float>() + a.numel());
        const auto batched = net()(both);
        QCOMPARE(batched.logits.shape(), (Shape{2, 1001}));
        const Tensor la = net()(a).logits, lb = net()(b).logits;
        QVERIFY(deviation(batched.logits.slice(0, 1), la, 1e-4, 0).excess <= 0);
        QVERIFY(deviation(batched.logits.slice(1, 2), lb, 1e-4, 0).excess <= 0);
    }

    void halfPrecisionWeightsLoad()
    {
        // A package may ship fp16 weights; they load through the same WeightLoader and keep the
        // top-1 class (fp16 rounding moves logits a little, so no tight tolerance here).
        const SafeTensorsFile file(modelPath("model.safetensors"));
        const auto config = readJson(modelPath("config.json"));
        const vision::MobileNetV2 half(config, [&](const std::string &name, const Shape &shape) {
            const Tensor f = file.loadFloat(name, shape);
            Tensor h(f.shape(), DType::F16);
            for (std::int64_t i = 0; i < f.numel(); ++i)
                h.data<std::uint16_t>()[i] = floatToHalf(f.data<float>()[i]);
            return h;
        });
        const Tensor input =
            readFloats(modelPath("testvectors/cat_720p/input.f32.bin"), {1, 3, 224, 224});
        const Tensor full = net()(input).logits, reduced = half(input).logits;
        qInfo("fp16 weights: max logit diff %.3g", deviation(reduced, full, 0, 0).maxAbs);
        QCOMPARE(topK(reduced, 1), topK(full, 1));
    }

    void rejectsBadRequests()
    {
        const Tensor input({1, 3, 224, 224});
        try {
            net()(input, {"stride64_nothing"});
            QFAIL("expected std::invalid_argument");
        } catch (const std::invalid_argument &e) {
            QVERIFY2(std::string(e.what()).find("unknown feature map \"stride64_nothing\"") !=
                         std::string::npos,
                     e.what());
        }
        try {
            net()(Tensor({1, 3, 200, 224}));
            QFAIL("expected std::invalid_argument");
        } catch (const std::invalid_argument &e) {
            QVERIFY2(std::string(e.what()).find("[1, 3, 200, 224] is not F32 [N, 3, 224, 224]") !=
                         std::string::npos,
                     e.what());
        }
        auto config = readJson(modelPath("config.json"));
        config["ops"][3]["type"] = "MAX_POOL_2D";
        const SafeTensorsFile file(modelPath("model.safetensors"));
        const auto loader = [&](const std::string &name, const Shape &shape) {
            return file.loadFloat(name, shape);
        };
        QVERIFY_THROWS_EXCEPTION(std::runtime_error, vision::MobileNetV2(config, loader));
    }
};

QTEST_APPLESS_MAIN(TestMobileNet)
#include "tst_mobilenet.moc"
