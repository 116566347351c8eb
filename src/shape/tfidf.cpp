#include "shape/tfidf.h"

#include <algorithm>
#include <string>

namespace oinfer::shape {

void inferTfIdfVectorizer(InferContext& ctx) {
  const DataType dt = ctx.inputType(0);
  if (dt != DataType::kString && dt != DataType::kInt32 && dt != DataType::kInt64)
    ctx.fail("input 0 ('" + ctx.node().inputs[0] + "') must be string, int32 or int64, got " + dataTypeName(dt));
  const std::vector<int64_t> indexes = ctx.node().attrInts("ngram_indexes");
  if (indexes.empty()) ctx.fail("attribute 'ngram_indexes' is required and must not be empty");
  const int64_t size = *std::max_element(indexes.begin(), indexes.end()) + 1;
  if (!ctx.hasShape(0)) {
    ctx.setOutputUnknownShape(0, DataType::kFloat);
    return;
  }
  const Shape& x = ctx.inputShape(0);
  if (x.size() > 2)
    ctx.fail("input 0 ('" + ctx.node().inputs[0] + "') must be [C] or [B,C], got shape " + shapeToString(x));
  if (x.size() == 2) ctx.setOutput(0, DataType::kFloat, {x[0], Dim(size)});
  else ctx.setOutput(0, DataType::kFloat, {Dim(size)});
}

}  // namespace oinfer::shape
