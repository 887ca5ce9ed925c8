#include "engine/ops/dnnlutil.h"

namespace glosa::engine::ops {

const char *activationName(Activation activation)
{
    switch (activation) {
    case Activation::None:
        return "none";
    case Activation::Relu:
        return "relu";
    case Activation::Relu6:
        return "relu6";
    case Activation::Gelu:
        return "gelu";
    case Activation::Tanh:
        return "tanh";
    case Activation::Sigmoid:
        return "sigmoid";
    case Activation::Swish:
        return "swish";
    }
    return "?";
}

namespace detail {

void requireF32(const Tensor &t, const char *op, const char *what)
{
    if (t.dtype() != DType::F32)
        throw std::invalid_argument(std::string(op) + ": " + what + " must be F32, got " +
                                    dtypeName(t.dtype()) + " " + shapeToString(t.shape()));
}

void requireRank(const Tensor &t, int rank, const char *op, const char *what)
{
    if (t.rank() != rank)
        throw std::invalid_argument(std::string(op) + ": " + what + " must have rank " +
                                    std::to_string(rank) + ", got " + shapeToString(t.shape()));
}

void requireNonEmpty(const Tensor &t, const char *op, const char *what)
{
    if (t.empty())
        throw std::invalid_argument(std::string(op) + ": " + what + " is empty " +
                                    shapeToString(t.shape()));
}

void requireLinearWeights(const Tensor &weight, const Tensor &bias, const char *op)
{
    requireRank(weight, 2, op, "weight [out, in]");
    requireNonEmpty(weight, op, "weight");
    if (!bias.empty() && (bias.rank() != 1 || bias.dim(0) != weight.dim(0)))
        throw std::invalid_argument(std::string(op) + ": bias " + shapeToString(bias.shape()) +
                                    " does not match weight " + shapeToString(weight.shape()) +
                                    " (expected [" + std::to_string(weight.dim(0)) + "])");
}

void eltwiseParams(Activation activation, dnnl::algorithm &alg, float &alpha, float &beta)
{
    alpha = 0.0f;
    beta = 0.0f;
    switch (activation) {
    case Activation::None:
        alg = dnnl::algorithm::eltwise_linear; // y = 1 * x + 0
        alpha = 1.0f;
        return;
    case Activation::Relu:
        alg = dnnl::algorithm::eltwise_relu;
        return;
    case Activation::Relu6:
        alg = dnnl::algorithm::eltwise_clip_v2;
        beta = 6.0f;
        return;
    case Activation::Gelu:
        alg = dnnl::algorithm::eltwise_gelu_erf;
        return;
    case Activation::Tanh:
        alg = dnnl::algorithm::eltwise_tanh;
        return;
    case Activation::Sigmoid:
        alg = dnnl::algorithm::eltwise_logistic;
        return;
    case Activation::Swish:
        alg = dnnl::algorithm::eltwise_swish; // x * sigmoid(alpha * x)
        alpha = 1.0f;
        return;
    }
    throw std::invalid_argument("unknown activation " +
                                std::to_string(static_cast<int>(activation)));
}

void appendActivation(dnnl::post_ops &ops, Activation activation)
{
    if (activation == Activation::None)
        return;
    dnnl::algorithm alg;
    float alpha, beta;
    eltwiseParams(activation, alg, alpha, beta);
    ops.append_eltwise(1.0f, alg, alpha, beta);
}

dnnl::primitive_attr makeAttr(Activation activation)
{
    dnnl::primitive_attr attr;
    attr.set_scratchpad_mode(dnnl::scratchpad_mode::user);
    if (activation != Activation::None) {
        dnnl::post_ops ops;
        appendActivation(ops, activation);
        attr.set_post_ops(ops);
    }
    return attr;
}

void execute(const dnnl::primitive &prim, const dnnl::primitive_desc_base &pd,
             std::unordered_map<int, dnnl::memory> args)
{
    dnnl::stream &s = runtime::stream();
    const dnnl::memory::desc scratch = pd.scratchpad_desc();
    if (scratch.get_size() > 0)
        args.emplace(DNNL_ARG_SCRATCHPAD,
                     dnnl::memory(scratch, runtime::engine(),
                                  runtime::threadScratchpad(scratch.get_size())));
    prim.execute(s, args);
    s.wait();
}

Tensor floatWeights(const Tensor &t)
{
    return t.dtype() == DType::F32 ? t : t.toFloat32();
}

} // namespace detail
} // namespace glosa::engine::ops
