#include "engine/vision/mobilenetv2.h"

#include "engine/ops/elementwise.h"
#include "engine/ops/softmax.h"
#include "engine/safetensors.h"

#include <nlohmann/json.hpp>

#include <fstream>
#include <stdexcept>
#include <unordered_map>

namespace glosa::engine::vision {

namespace {

enum class OpType { Conv, Add, AvgPool, Reshape, Softmax };

struct Node
{
    OpType type;
    std::string name;        // = its output tensor's name
    std::vector<int> inputs; // value slots
    int output = -1;
    ops::Conv2d conv;
    std::unique_ptr<ops::AvgPool2d> pool;
    ops::Activation activation = ops::Activation::None; // for Add
    Shape outputShape; // NCHW, from the config, checked after the first run of each shape
};

ops::Activation parseActivation(const std::string &name, const std::string &op)
{
    if (name == "NONE")
        return ops::Activation::None;
    if (name == "RELU6")
        return ops::Activation::Relu6;
    if (name == "RELU")
        return ops::Activation::Relu;
    throw std::runtime_error("MobileNetV2: op " + op + " has unsupported activation " + name);
}

Shape jsonShape(const nlohmann::json &j)
{
    return j.get<Shape>();
}

} // namespace

struct MobileNetV2::Impl
{
    Shape inputShape; // NCHW
    std::int64_t classes = 0;
    std::vector<std::string> valueNames; // slot -> tensor name; slot 0 = "input"
    std::unordered_map<std::string, int> slots;
    std::vector<Node> nodes;
    std::vector<int> lastUse; // slot -> index of the last node reading it
    int logitsSlot = -1, probabilitiesSlot = -1;
    std::map<std::string, std::string> featureMaps;

    // A batch of images of the graph's shape: F32 [N, C, H, W].
    void checkInput(const Tensor &input) const
    {
        if (input.dtype() != DType::F32 || input.rank() != 4 || input.dim(1) != inputShape[1] ||
            input.dim(2) != inputShape[2] || input.dim(3) != inputShape[3] || input.dim(0) < 1)
            throw std::invalid_argument(
                "MobileNetV2: input " + std::string(dtypeName(input.dtype())) + " " +
                shapeToString(input.shape()) + " is not F32 [N, " + std::to_string(inputShape[1]) +
                ", " + std::to_string(inputShape[2]) + ", " + std::to_string(inputShape[3]) + "]");
    }

    // The slots of the requested feature maps (an alias or any op's name), marked in `wanted`
    // with the logits and probabilities; resolved before any work, so a typo fails fast.
    std::vector<std::pair<std::string, int>> resolve(const std::vector<std::string> &features,
                                                     std::vector<int> &wanted) const
    {
        std::vector<std::pair<std::string, int>> requests;
        for (const std::string &name : features) {
            auto alias = featureMaps.find(name);
            const std::string &tensor = alias != featureMaps.end() ? alias->second : name;
            auto it = slots.find(tensor);
            if (it == slots.end()) {
                std::string known;
                for (const auto &[a, t] : featureMaps)
                    known += (known.empty() ? "" : ", ") + a;
                throw std::invalid_argument("MobileNetV2: unknown feature map \"" + name +
                                            "\" (aliases: " + known + "; or any op name)");
            }
            wanted[it->second] = 1;
            requests.emplace_back(name, it->second);
        }
        wanted[logitsSlot] = wanted[probabilitiesSlot] = 1;
        return requests;
    }

    // One op of the graph on the batch of `n`, into its output slot.
    static void run(const Node &node, std::vector<Tensor> &values, std::int64_t n)
    {
        Tensor &out = values[node.output];
        switch (node.type) {
        case OpType::Conv:
            node.conv(values[node.inputs[0]], out);
            break;
        case OpType::Add:
            ops::Add()(values[node.inputs[0]], values[node.inputs[1]], out);
            if (node.activation != ops::Activation::None)
                ops::Elementwise(node.activation)(out, out);
            break;
        case OpType::AvgPool:
            (*node.pool)(values[node.inputs[0]], out);
            break;
        case OpType::Reshape: {
            // NHWC [N, 1, 1, C] and NCHW [N, C, 1, 1] flatten alike; anything with spatial
            // extent would not, so refuse it rather than silently permute.
            const Tensor &in = values[node.inputs[0]];
            if (in.rank() == 4 && (in.dim(1) != 1 || in.dim(2) != 1))
                throw std::runtime_error("MobileNetV2: RESHAPE " + node.name + " of " +
                                         shapeToString(in.shape()) +
                                         " (NHWC) with spatial extent is not supported");
            out = in.reshaped({n, in.numel() / n});
            break;
        }
        case OpType::Softmax:
            ops::Softmax()(values[node.inputs[0]], out);
            break;
        }
    }

    // The config's shapes are NCHW for batch 1; check ours against them (cheap, and it catches a
    // graph the ops misread, such as the wrong SAME padding).
    static void checkOutput(const Node &node, const Tensor &out, std::int64_t n)
    {
        const Shape &expected = node.outputShape;
        Shape got = out.shape();
        if (got.size() == 4)
            got = {got[0], got[3], got[1], got[2]};
        Shape want = expected;
        if (!want.empty())
            want[0] = n;
        if (got != want)
            throw std::runtime_error("MobileNetV2: op " + node.name + " produced " +
                                     shapeToString(out.shape()) + " (NHWC), the graph says " +
                                     shapeToString(expected) + " (NCHW)");
    }

    // One op of the config's "ops": its node, reading its inputs' slots and making its output's.
    void addOp(const nlohmann::json &op, const WeightLoader &loadWeight);

    int slotOf(const std::string &name, const std::string &op) const
    {
        auto it = slots.find(name);
        if (it == slots.end())
            throw std::runtime_error("MobileNetV2: op " + op + " reads " + name +
                                     ", which no earlier op produces");
        return it->second;
    }

    int newSlot(const std::string &name)
    {
        if (slots.count(name))
            throw std::runtime_error("MobileNetV2: tensor " + name + " is produced twice");
        slots[name] = static_cast<int>(valueNames.size());
        valueNames.push_back(name);
        return slots[name];
    }
};

namespace {

// Pads of an op: {"top", "left", "bottom", "right"}.
template <typename Params> void readPads(const nlohmann::json &pads, Params &p)
{
    p.padTop = pads.at("top").get<std::int64_t>();
    p.padLeft = pads.at("left").get<std::int64_t>();
    p.padBottom = pads.at("bottom").get<std::int64_t>();
    p.padRight = pads.at("right").get<std::int64_t>();
}

// CONV_2D and DEPTHWISE_CONV_2D: the convolution with its weights, checked against the graph's
// shapes.
void readConv(const nlohmann::json &op, Node &node, const WeightLoader &loadWeight)
{
    node.type = OpType::Conv;
    ops::Conv2dParams p;
    const auto stride = op.at("stride").get<std::vector<std::int64_t>>();
    const auto dilation = op.at("dilation").get<std::vector<std::int64_t>>();
    p.strideH = stride.at(0);
    p.strideW = stride.at(1);
    p.dilationH = dilation.at(0);
    p.dilationW = dilation.at(1);
    readPads(op.at("pads"), p);
    p.groups = op.at("groups").get<std::int64_t>();
    p.activation = parseActivation(op.at("activation").get<std::string>(), node.name);
    p.layout = ops::Layout::NHWC;
    const Shape wShape = jsonShape(op.at("weight_shape"));
    const Shape bShape = jsonShape(op.at("bias_shape"));
    const std::string wName = op.at("weight").get<std::string>();
    const std::string bName = op.at("bias").get<std::string>();
    const Tensor w = loadWeight(wName, wShape);
    const Tensor b = loadWeight(bName, bShape);
    if (w.shape() != wShape || b.shape() != bShape)
        throw std::invalid_argument("MobileNetV2: " + wName + " " + shapeToString(w.shape()) +
                                    " / " + bName + " " + shapeToString(b.shape()) +
                                    " differ from the graph's " + shapeToString(wShape) + " / " +
                                    shapeToString(bShape));
    node.conv = ops::Conv2d(w, b, p);
}

// AVERAGE_POOL_2D, without an activation.
void readPool(const nlohmann::json &op, Node &node)
{
    node.type = OpType::AvgPool;
    ops::Pool2dParams p;
    const auto kernel = op.at("kernel").get<std::vector<std::int64_t>>();
    const auto stride = op.at("stride").get<std::vector<std::int64_t>>();
    p.kernelH = kernel.at(0);
    p.kernelW = kernel.at(1);
    p.strideH = stride.at(0);
    p.strideW = stride.at(1);
    readPads(op.at("pads"), p);
    p.countIncludePad = op.value("count_include_pad", false);
    p.layout = ops::Layout::NHWC;
    node.pool = std::make_unique<ops::AvgPool2d>(p);
    if (parseActivation(op.value("activation", "NONE"), node.name) != ops::Activation::None)
        throw std::runtime_error("MobileNetV2: pooling with an activation is not supported (" +
                                 node.name + ")");
}

// One op of the graph's "ops" (its inputs already resolved into `node`), by type.
void readOp(const nlohmann::json &op, const std::string &type, Node &node,
            const WeightLoader &loadWeight)
{
    if (type == "CONV_2D" || type == "DEPTHWISE_CONV_2D") {
        readConv(op, node, loadWeight);
    } else if (type == "ADD") {
        node.type = OpType::Add;
        if (node.inputs.size() != 2)
            throw std::runtime_error("MobileNetV2: ADD " + node.name + " needs 2 inputs");
        node.activation = parseActivation(op.value("activation", "NONE"), node.name);
    } else if (type == "AVERAGE_POOL_2D") {
        readPool(op, node);
    } else if (type == "RESHAPE") {
        node.type = OpType::Reshape;
    } else if (type == "SOFTMAX") {
        node.type = OpType::Softmax;
        if (op.value("beta", 1.0) != 1.0 || op.value("axis", -1) != -1)
            throw std::runtime_error("MobileNetV2: SOFTMAX " + node.name +
                                     " must have beta 1 over the last axis");
    } else {
        throw std::runtime_error("MobileNetV2: unsupported op type " + type + " (" + node.name +
                                 ")");
    }
    if (node.type != OpType::Add && node.inputs.size() != 1)
        throw std::runtime_error("MobileNetV2: op " + node.name + " needs 1 input");
}

} // namespace

void MobileNetV2::Impl::addOp(const nlohmann::json &op, const WeightLoader &loadWeight)
{
    Node node;
    const std::string type = op.at("type").get<std::string>();
    node.name = op.at("name").get<std::string>();
    for (const auto &in : op.at("inputs"))
        node.inputs.push_back(slotOf(in.get<std::string>(), node.name));
    node.outputShape = jsonShape(op.at("output_shape"));
    readOp(op, type, node, loadWeight);
    node.output = newSlot(op.at("output").get<std::string>());
    nodes.push_back(std::move(node));
}

MobileNetV2::MobileNetV2(const nlohmann::json &config, const WeightLoader &loadWeight)
{
    if (config.value("format", "") != "float32-backbone-graph/v1")
        throw std::runtime_error("MobileNetV2: unsupported config format \"" +
                                 config.value("format", "") +
                                 "\" (expected float32-backbone-graph/v1)");
    auto impl = std::make_shared<Impl>();
    try {
        const auto &input = config.at("input");
        impl->inputShape = jsonShape(input.at("shape"));
        if (input.value("layout", "NCHW") != "NCHW" || impl->inputShape.size() != 4)
            throw std::runtime_error("MobileNetV2: input must be NCHW [N, C, H, W], got " +
                                     input.dump());
        impl->newSlot(input.at("name").get<std::string>());
        impl->classes = config.at("num_classes").get<std::int64_t>();
        if (config.contains("feature_maps"))
            impl->featureMaps = config.at("feature_maps").get<std::map<std::string, std::string>>();
        for (const auto &op : config.at("ops"))
            impl->addOp(op, loadWeight);
        const auto &outputs = config.at("outputs");
        impl->logitsSlot =
            impl->slotOf(outputs.at("logits").at("name").get<std::string>(), "outputs.logits");
        impl->probabilitiesSlot = impl->slotOf(
            outputs.at("probabilities").at("name").get<std::string>(), "outputs.probabilities");
    } catch (const nlohmann::json::exception &e) {
        throw std::runtime_error(std::string("MobileNetV2: malformed config: ") + e.what());
    }
    impl->lastUse.assign(impl->valueNames.size(), -1);
    for (std::size_t i = 0; i < impl->nodes.size(); ++i)
        for (int in : impl->nodes[i].inputs)
            impl->lastUse[in] = static_cast<int>(i);
    m_impl = std::move(impl);
}

MobileNetV2 MobileNetV2::fromFiles(const std::string &configPath, const std::string &weightsPath)
{
    std::ifstream in(configPath);
    if (!in)
        throw std::runtime_error("MobileNetV2: cannot open " + configPath);
    nlohmann::json config;
    try {
        config = nlohmann::json::parse(in);
    } catch (const nlohmann::json::exception &e) {
        throw std::runtime_error("MobileNetV2: " + configPath + ": " + e.what());
    }
    const SafeTensorsFile weights(weightsPath);
    return MobileNetV2(config, [&](const std::string &name, const Shape &expected) {
        return weights.loadFloat(name, expected);
    });
}

Shape MobileNetV2::inputShape() const
{
    return m_impl->inputShape;
}
std::int64_t MobileNetV2::numClasses() const
{
    return m_impl->classes;
}
const std::map<std::string, std::string> &MobileNetV2::featureMaps() const
{
    return m_impl->featureMaps;
}

std::vector<std::string> MobileNetV2::tensorNames() const
{
    return m_impl->valueNames;
}

MobileNetV2::Result MobileNetV2::operator()(const Tensor &input,
                                            const std::vector<std::string> &features,
                                            ops::Layout featureLayout) const
{
    const Impl &impl = *m_impl;
    impl.checkInput(input);
    std::vector<int> wanted(impl.valueNames.size(), 0);
    const std::vector<std::pair<std::string, int>> requests = impl.resolve(features, wanted);

    const std::int64_t n = input.dim(0);
    std::vector<Tensor> values(impl.valueNames.size());
    values[0] = ops::nchwToNhwc(input);
    for (std::size_t i = 0; i < impl.nodes.size(); ++i) {
        const Node &node = impl.nodes[i];
        Impl::run(node, values, n);
        Impl::checkOutput(node, values[node.output], n);
        // Free inputs nobody reads any more (keeps peak memory near two feature maps).
        for (int in : node.inputs)
            if (impl.lastUse[in] == static_cast<int>(i) && !wanted[in])
                values[in] = Tensor();
    }

    Result result;
    result.logits = values[impl.logitsSlot];
    result.probabilities = values[impl.probabilitiesSlot];
    for (const auto &[name, slot] : requests) {
        const Tensor &v = values[slot];
        result.features[name] =
            v.rank() == 4 && featureLayout == ops::Layout::NCHW ? ops::nhwcToNchw(v) : v;
    }
    return result;
}

} // namespace glosa::engine::vision
