// Conv2d (dense, grouped, depthwise; asymmetric pads, strides, dilation, fused activations) and
// AvgPool2d against their plain-loop references, in both NCHW and NHWC.
#include "engine/ops/conv.h"
#include "tests/reference/opsreference.h"

#include "tests/engine/tst_ops_common.h"

#include <QtTest>

using namespace glosa::engine;
using namespace glosa::engine::ops;
using glosa::test::randomTensor;

Q_DECLARE_METATYPE(glosa::engine::ops::Conv2dParams)

namespace {

Conv2dParams params(std::int64_t stride, std::int64_t groups, std::int64_t t, std::int64_t l,
                    std::int64_t b, std::int64_t r, Activation act = Activation::None,
                    std::int64_t dilation = 1)
{
    Conv2dParams p;
    p.strideH = p.strideW = stride;
    p.groups = groups;
    p.padTop = t;
    p.padLeft = l;
    p.padBottom = b;
    p.padRight = r;
    p.activation = act;
    p.dilationH = p.dilationW = dilation;
    return p;
}

} // namespace

class TestOpsConv : public QObject
{
    Q_OBJECT
private slots:
    void conv2d_data()
    {
        QTest::addColumn<int>("inC");
        QTest::addColumn<int>("outC");
        QTest::addColumn<int>("kernel");
        QTest::addColumn<int>("size");
        QTest::addColumn<bool>("withBias");
        QTest::addColumn<Conv2dParams>("p");
        QTest::newRow("1x1") << 7 << 33 << 1 << 7 << true << params(1, 1, 0, 0, 0, 0);
        QTest::newRow("1x1 relu6 one pixel")
            << 100 << 3 << 1 << 1 << true << params(1, 1, 0, 0, 0, 0, Activation::Relu6);
        QTest::newRow("3x3 same") << 3 << 16 << 3 << 7 << true << params(1, 1, 1, 1, 1, 1);
        QTest::newRow("3x3 stride2 tflite same")
            << 3 << 32 << 3 << 8 << true << params(2, 1, 0, 0, 1, 1, Activation::Relu6);
        QTest::newRow("3x3 odd asymmetric")
            << 5 << 7 << 3 << 33 << false << params(2, 1, 1, 0, 2, 1, Activation::Relu);
        QTest::newRow("depthwise 3x3")
            << 32 << 32 << 3 << 7 << true << params(1, 32, 1, 1, 1, 1, Activation::Relu6);
        QTest::newRow("depthwise stride2 asym")
            << 96 << 96 << 3 << 14 << true << params(2, 96, 0, 0, 1, 1, Activation::Relu6);
        QTest::newRow("depthwise odd channels")
            << 33 << 33 << 3 << 3 << true << params(1, 33, 1, 1, 1, 1);
        QTest::newRow("grouped") << 8 << 12 << 3 << 5 << true << params(1, 4, 1, 1, 1, 1);
        QTest::newRow("dilated") << 4 << 6 << 3 << 9 << true
                                 << params(1, 1, 2, 2, 2, 2, Activation::None, 2);
        QTest::newRow("5x5 stride3") << 3 << 5 << 5 << 11 << true << params(3, 1, 2, 1, 0, 2);
    }
    void conv2d()
    {
        QFETCH(int, inC);
        QFETCH(int, outC);
        QFETCH(int, kernel);
        QFETCH(int, size);
        QFETCH(bool, withBias);
        QFETCH(Conv2dParams, p);
        const Tensor w = randomTensor({outC, inC / p.groups, kernel, kernel}, 1);
        const Tensor b = withBias ? randomTensor({outC}, 2) : Tensor();
        for (Layout layout : {Layout::NCHW, Layout::NHWC}) {
            p.layout = layout;
            const Conv2d conv(w, b, p);
            for (int batch : {1, 2}) {
                const Tensor xNchw =
                    randomTensor({batch, inC, size, size + 1}, 3 + batch, -2.0f, 2.0f);
                const Tensor x = layout == Layout::NHWC ? nchwToNhwc(xNchw) : xNchw;
                Tensor y, expected;
                conv(x, y);
                QCOMPARE(y.shape(), conv.outputShape(x.shape()));
                reference::conv2d(x, w, b, p, expected);
                GLOSA_COMPARE_TENSORS(y, expected);
                // Layouts agree with each other too.
                if (layout == Layout::NHWC) {
                    Conv2dParams pn = p;
                    pn.layout = Layout::NCHW;
                    Tensor yn;
                    Conv2d(w, b, pn)(xNchw, yn);
                    GLOSA_COMPARE_TENSORS(nhwcToNchw(y), yn);
                }
            }
        }
    }
    void conv2dRejectsBadInput()
    {
        const Conv2d conv(randomTensor({4, 3, 3, 3}, 1), randomTensor({4}, 2), Conv2dParams());
        Tensor y;
        GLOSA_VERIFY_THROWS_WITH(std::invalid_argument, conv(Tensor({1, 5, 8, 8}), y),
                                 "input [1, 5, 8, 8] is not NCHW with 3 channels");
        GLOSA_VERIFY_THROWS_WITH(std::invalid_argument, conv(Tensor({1, 3, 2, 8}), y),
                                 "smaller than the 3x3 kernel");
        GLOSA_VERIFY_THROWS_WITH(
            std::invalid_argument,
            Conv2d(randomTensor({4, 3, 3, 3}, 1), randomTensor({3}, 2), Conv2dParams()),
            "bias [3] does not match weight [4, 3, 3, 3]");
        Conv2dParams grouped;
        grouped.groups = 3;
        GLOSA_VERIFY_THROWS_WITH(std::invalid_argument,
                                 Conv2d(randomTensor({4, 1, 3, 3}, 1), Tensor(), grouped),
                                 "does not fit groups 3");
    }
    void avgPool_data()
    {
        QTest::addColumn<int>("kernel");
        QTest::addColumn<int>("stride");
        QTest::addColumn<int>("pad");
        QTest::addColumn<bool>("includePad");
        QTest::newRow("global 7x7") << 7 << 1 << 0 << false;
        QTest::newRow("3x3 s2 pad exclude") << 3 << 2 << 1 << false;
        QTest::newRow("3x3 s2 pad include") << 3 << 2 << 1 << true;
        QTest::newRow("2x2 s2") << 2 << 2 << 0 << false;
    }
    void avgPool()
    {
        QFETCH(int, kernel);
        QFETCH(int, stride);
        QFETCH(int, pad);
        QFETCH(bool, includePad);
        Pool2dParams p;
        p.kernelH = p.kernelW = kernel;
        p.strideH = p.strideW = stride;
        p.padTop = p.padLeft = pad;
        p.padBottom = p.padRight = pad + 1 < kernel ? pad + 1 : pad; // asymmetric where legal
        p.countIncludePad = includePad;
        for (Layout layout : {Layout::NCHW, Layout::NHWC}) {
            p.layout = layout;
            const Tensor x =
                randomTensor(layout == Layout::NCHW ? Shape{1, 33, 7, 7} : Shape{2, 7, 7, 33}, 5);
            Tensor y, expected;
            AvgPool2d{p}(x, y);
            reference::avgPool2d(x, p, expected);
            GLOSA_COMPARE_TENSORS(y, expected);
        }
    }
};

QTEST_APPLESS_MAIN(TestOpsConv)
#include "tst_ops_conv.moc"
