// image family, part 2: Col2Im, RoiAlign and NonMaxSuppression. Expected
// values come from onnx.reference (onnxruntime where the reference cannot run
// the form: NMS without optional inputs, and RoiAlign-10, whose legacy
// no-shift coordinates the reference does not model); each test names its
// inputs in numpy terms.
#include <gtest/gtest.h>

#include "op_tester.h"

namespace oinfer::testing {
namespace {

TEST(ImageRoi, Col2Im2d) {
  // x = arange(48).reshape(1,8,6)/4, image_shape=[3,4], block_shape=[2,2]
  // expected: onnx.reference.ReferenceEvaluator on Col2Im-18
  OpTester t("Col2Im", 18);
  t
      .input("x", Tensor::fromVector<float>({1, 8, 6}, {0, 0.25, 0.5, 0.75, 1, 1.25, 1.5, 1.75, 2, 2.25, 2.5, 2.75, 3, 3.25, 3.5, 3.75, 4, 4.25, 4.5, 4.75, 5, 5.25, 5.5, 5.75, 6, 6.25, 6.5, 6.75, 7, 7.25, 7.5, 7.75, 8, 8.25, 8.5, 8.75, 9, 9.25, 9.5, 9.75, 10, 10.25, 10.5, 10.75, 11, 11.25, 11.5, 11.75}))
      .input("image_shape", Tensor::fromVector<int64_t>({2}, {3, 4}), true)
      .input("block_shape", Tensor::fromVector<int64_t>({2}, {2, 2}), true)
      .expect("y", Tensor::fromVector<float>({1, 2, 3, 4}, {0, 1.75, 2.25, 2, 3.75, 11, 12, 7.75, 3.75, 9.25, 9.75, 5.75, 6, 13.75, 14.25, 8, 15.75, 35, 36, 19.75, 9.75, 21.25, 21.75, 11.75}));
  t.run();
}

TEST(ImageRoi, Col2ImStridesPadsDilations) {
  // x = arange(6).reshape(1,2,3), image [1,5], block [1,2], strides [1,2], pads [0,1,0,1], dilations [1,2]
  // expected: onnx.reference.ReferenceEvaluator on Col2Im-18
  OpTester t("Col2Im", 18);
  t.attr("strides", std::vector<int64_t>{1, 2}).attr("pads", std::vector<int64_t>{0, 1, 0, 1}).attr("dilations", std::vector<int64_t>{1, 2})
      .input("x", Tensor::fromVector<float>({1, 2, 3}, {0, 1, 2, 3, 4, 5}))
      .input("image_shape", Tensor::fromVector<int64_t>({2}, {1, 5}), true)
      .input("block_shape", Tensor::fromVector<int64_t>({2}, {1, 2}), true)
      .expect("y", Tensor::fromVector<float>({1, 1, 1, 5}, {0, 4, 0, 6, 0}));
  t.run();
}

// A zero stride (a fuzz finding: integer division by zero, SIGFPE) and a
// non-positive block are Errors naming the attribute or input.
TEST(ImageRoi, Col2ImZeroStrideIsAnError) {
  OpTester t("Col2Im", 18);
  t.attr("strides", std::vector<int64_t>{2, 0})
      .input("x", Tensor::fromVector<float>({1, 2, 3}, {0, 1, 2, 3, 4, 5}))
      .input("image_shape", Tensor::fromVector<int64_t>({2}, {1, 5}), true)
      .input("block_shape", Tensor::fromVector<int64_t>({2}, {1, 2}), true)
      .output("y");
  t.expectError("attribute 'strides' [2,0] must be positive");
  OpTester b("Col2Im", 18);
  b.input("x", Tensor::fromVector<float>({1, 2, 3}, {0, 1, 2, 3, 4, 5}))
      .input("image_shape", Tensor::fromVector<int64_t>({2}, {1, 5}))
      .input("block_shape", Tensor::fromVector<int64_t>({2}, {1, 0}))
      .output("y");
  b.expectError("image_shape [1,5] must not be negative and block_shape [1,0] must be positive");
}

TEST(ImageRoi, RoiAlign10AvgdefaultRatio0) {
  // X = (arange(100).reshape(2,2,5,5) % 7) / 3
  // rois = [[0,0,3,3],[1.2,0.5,4.6,3.3],[-1,2,2.5,6]], batch_indices = [0,1,0]
  // expected: onnxruntime on RoiAlign-10
  OpTester t("RoiAlign", 10);
  t.attr("mode", "avg").attr("output_height", int64_t{2}).attr("output_width", int64_t{3}).attr("sampling_ratio", int64_t{0}).attr("spatial_scale", 0.9f)
      .input("X", Tensor::fromVector<float>({2, 2, 5, 5}, {0, 0.333333343, 0.666666687, 1, 1.33333337, 1.66666663, 2, 0, 0.333333343, 0.666666687, 1, 1.33333337, 1.66666663, 2, 0, 0.333333343, 0.666666687, 1, 1.33333337, 1.66666663, 2, 0, 0.333333343, 0.666666687, 1, 1.33333337, 1.66666663, 2, 0, 0.333333343, 0.666666687, 1, 1.33333337, 1.66666663, 2, 0, 0.333333343, 0.666666687, 1, 1.33333337, 1.66666663, 2, 0, 0.333333343, 0.666666687, 1, 1.33333337, 1.66666663, 2, 0, 0.333333343, 0.666666687, 1, 1.33333337, 1.66666663, 2, 0, 0.333333343, 0.666666687, 1, 1.33333337, 1.66666663, 2, 0, 0.333333343, 0.666666687, 1, 1.33333337, 1.66666663, 2, 0, 0.333333343, 0.666666687, 1, 1.33333337, 1.66666663, 2, 0, 0.333333343, 0.666666687, 1, 1.33333337, 1.66666663, 2, 0, 0.333333343, 0.666666687, 1, 1.33333337, 1.66666663, 2, 0, 0.333333343, 0.666666687, 1, 1.33333337, 1.66666663, 2, 0, 0.333333343}))
      .input("rois", Tensor::fromVector<float>({3, 4}, {0, 0, 3, 3, 1.20000005, 0.5, 4.5999999, 3.29999995, -1, 2, 2.5, 6}))
      .input("batch_indices", Tensor::fromVector<int64_t>({3}, {0, 1, 0}))
      .expect("Y", Tensor::fromVector<float>({3, 2, 2, 3}, {1.26041663, 1.01937509, 0.314583212, 1.13333344, 1.30572927, 1.36874986, 1.0333333, 1.33333325, 1.44010425, 0.556249857, 0.708229125, 0.733333409, 0.604166627, 0.6630584, 0.823333323, 1.63666689, 1.03726673, 0.776666284, 1.31490827, 1.5424999, 0.875550151, 0.636666894, 0.976666749, 1.31666672, 0.708333254, 0.815208375, 1.10833335, 2, 0.649999738, 0.241666734, 0.991666675, 1.2166667, 0.636249721, 1, 1.22500014, 1.57500005}));
  t.run();
}

TEST(ImageRoi, RoiAlign10MaxdefaultRatio1) {
  // X = (arange(100).reshape(2,2,5,5) % 7) / 3
  // rois = [[0,0,3,3],[1.2,0.5,4.6,3.3],[-1,2,2.5,6]], batch_indices = [0,1,0]
  // expected: onnxruntime on RoiAlign-10
  OpTester t("RoiAlign", 10);
  t.attr("mode", "max").attr("output_height", int64_t{2}).attr("output_width", int64_t{3}).attr("sampling_ratio", int64_t{1}).attr("spatial_scale", 0.9f)
      .input("X", Tensor::fromVector<float>({2, 2, 5, 5}, {0, 0.333333343, 0.666666687, 1, 1.33333337, 1.66666663, 2, 0, 0.333333343, 0.666666687, 1, 1.33333337, 1.66666663, 2, 0, 0.333333343, 0.666666687, 1, 1.33333337, 1.66666663, 2, 0, 0.333333343, 0.666666687, 1, 1.33333337, 1.66666663, 2, 0, 0.333333343, 0.666666687, 1, 1.33333337, 1.66666663, 2, 0, 0.333333343, 0.666666687, 1, 1.33333337, 1.66666663, 2, 0, 0.333333343, 0.666666687, 1, 1.33333337, 1.66666663, 2, 0, 0.333333343, 0.666666687, 1, 1.33333337, 1.66666663, 2, 0, 0.333333343, 0.666666687, 1, 1.33333337, 1.66666663, 2, 0, 0.333333343, 0.666666687, 1, 1.33333337, 1.66666663, 2, 0, 0.333333343, 0.666666687, 1, 1.33333337, 1.66666663, 2, 0, 0.333333343, 0.666666687, 1, 1.33333337, 1.66666663, 2, 0, 0.333333343, 0.666666687, 1, 1.33333337, 1.66666663, 2, 0, 0.333333343, 0.666666687, 1, 1.33333337, 1.66666663, 2, 0, 0.333333343}))
      .input("rois", Tensor::fromVector<float>({3, 4}, {0, 0, 3, 3, 1.20000005, 0.5, 4.5999999, 3.29999995, -1, 2, 2.5, 6}))
      .input("batch_indices", Tensor::fromVector<int64_t>({3}, {0, 1, 0}))
      .expect("Y", Tensor::fromVector<float>({3, 2, 2, 3}, {0.618750036, 0.877500057, 0.162500083, 0.585000038, 0.845000267, 1.2187506, 0.303749949, 0.438750029, 0.675000191, 0.14625001, 0.227499962, 0.48750025, 0.180933356, 0.374133319, 0.579599917, 0.778800428, 0.51480037, 0.428399503, 0.904666781, 1.12239993, 0.680800259, 0.389400214, 0.536800206, 0.693000197, 0.300000191, 0.314999998, 0.507499933, 2, 0.649999738, 0.241666719, 1.16666627, 0.944999933, 0.384999692, 1, 0.900000215, 1.20833349}));
  t.run();
}

TEST(ImageRoi, RoiAlign16AvghalfpixelRatio0) {
  // X = (arange(100).reshape(2,2,5,5) % 7) / 3
  // rois = [[0,0,3,3],[1.2,0.5,4.6,3.3],[-1,2,2.5,6]], batch_indices = [0,1,0]
  // expected: onnx.reference.ReferenceEvaluator on RoiAlign-16
  OpTester t("RoiAlign", 16);
  t.attr("mode", "avg").attr("output_height", int64_t{2}).attr("output_width", int64_t{3}).attr("sampling_ratio", int64_t{0}).attr("spatial_scale", 0.9f).attr("coordinate_transformation_mode", "half_pixel")
      .input("X", Tensor::fromVector<float>({2, 2, 5, 5}, {0, 0.333333343, 0.666666687, 1, 1.33333337, 1.66666663, 2, 0, 0.333333343, 0.666666687, 1, 1.33333337, 1.66666663, 2, 0, 0.333333343, 0.666666687, 1, 1.33333337, 1.66666663, 2, 0, 0.333333343, 0.666666687, 1, 1.33333337, 1.66666663, 2, 0, 0.333333343, 0.666666687, 1, 1.33333337, 1.66666663, 2, 0, 0.333333343, 0.666666687, 1, 1.33333337, 1.66666663, 2, 0, 0.333333343, 0.666666687, 1, 1.33333337, 1.66666663, 2, 0, 0.333333343, 0.666666687, 1, 1.33333337, 1.66666663, 2, 0, 0.333333343, 0.666666687, 1, 1.33333337, 1.66666663, 2, 0, 0.333333343, 0.666666687, 1, 1.33333337, 1.66666663, 2, 0, 0.333333343, 0.666666687, 1, 1.33333337, 1.66666663, 2, 0, 0.333333343, 0.666666687, 1, 1.33333337, 1.66666663, 2, 0, 0.333333343, 0.666666687, 1, 1.33333337, 1.66666663, 2, 0, 0.333333343, 0.666666687, 1, 1.33333337, 1.66666663, 2, 0, 0.333333343}))
      .input("rois", Tensor::fromVector<float>({3, 4}, {0, 0, 3, 3, 1.20000005, 0.5, 4.5999999, 3.29999995, -1, 2, 2.5, 6}))
      .input("batch_indices", Tensor::fromVector<int64_t>({3}, {0, 1, 0}))
      .expect("Y", Tensor::fromVector<float>({3, 2, 2, 3}, {0.427083254, 0.710416555, 0.561979234, 1.31666684, 1.60000014, 1.06875002, 1.16250002, 1.44583344, 1.74583328, 0.316666752, 0.600000083, 0.900000036, 0.421649992, 0.650000036, 0.990000069, 1.29488528, 1.29747069, 0.430728972, 1.47428334, 1.07438326, 1.08281672, 0.818252265, 1.14333344, 1.37665629, 0.433333397, 0.93958348, 1.2039063, 0.8125, 1.30234361, 0.258906126, 0.31249994, 0.697916627, 0.848489523, 0.574999988, 1.22291672, 1.43036461}));
  t.run();
}

TEST(ImageRoi, RoiAlign22MaxoutputhalfpixelRatio0) {
  // X = (arange(100).reshape(2,2,5,5) % 7) / 3
  // rois = [[0,0,3,3],[1.2,0.5,4.6,3.3],[-1,2,2.5,6]], batch_indices = [0,1,0]
  // expected: onnx.reference.ReferenceEvaluator on RoiAlign-22
  OpTester t("RoiAlign", 22);
  t.attr("mode", "max").attr("output_height", int64_t{2}).attr("output_width", int64_t{3}).attr("sampling_ratio", int64_t{0}).attr("spatial_scale", 0.9f).attr("coordinate_transformation_mode", "output_half_pixel")
      .input("X", Tensor::fromVector<float>({2, 2, 5, 5}, {0, 0.333333343, 0.666666687, 1, 1.33333337, 1.66666663, 2, 0, 0.333333343, 0.666666687, 1, 1.33333337, 1.66666663, 2, 0, 0.333333343, 0.666666687, 1, 1.33333337, 1.66666663, 2, 0, 0.333333343, 0.666666687, 1, 1.33333337, 1.66666663, 2, 0, 0.333333343, 0.666666687, 1, 1.33333337, 1.66666663, 2, 0, 0.333333343, 0.666666687, 1, 1.33333337, 1.66666663, 2, 0, 0.333333343, 0.666666687, 1, 1.33333337, 1.66666663, 2, 0, 0.333333343, 0.666666687, 1, 1.33333337, 1.66666663, 2, 0, 0.333333343, 0.666666687, 1, 1.33333337, 1.66666663, 2, 0, 0.333333343, 0.666666687, 1, 1.33333337, 1.66666663, 2, 0, 0.333333343, 0.666666687, 1, 1.33333337, 1.66666663, 2, 0, 0.333333343, 0.666666687, 1, 1.33333337, 1.66666663, 2, 0, 0.333333343, 0.666666687, 1, 1.33333337, 1.66666663, 2, 0, 0.333333343, 0.666666687, 1, 1.33333337, 1.66666663, 2, 0, 0.333333343}))
      .input("rois", Tensor::fromVector<float>({3, 4}, {0, 0, 3, 3, 1.20000005, 0.5, 4.5999999, 3.29999995, -1, 2, 2.5, 6}))
      .input("batch_indices", Tensor::fromVector<int64_t>({3}, {0, 1, 0}))
      .expect("Y", Tensor::fromVector<float>({3, 2, 2, 3}, {0.905208468, 1.2837503, 0.331250131, 0.412499905, 0.595833302, 0.85937506, 0.496874928, 0.717708468, 0.993750334, 0.332291454, 0.4712497, 0.34375006, 0.667549968, 0.509549975, 0.677024782, 1.64775026, 1.25775015, 1.1593492, 1.07737494, 1.32344961, 0.956249952, 0.823875129, 1.12449992, 1.43812478, 0.75, 0.937500179, 1.23437524, 2, 1.17499971, 0.32916674, 1.41666687, 1.59375048, 0.913749814, 1, 1.25000024, 1.64583361}));
  t.run();
}

TEST(ImageRoi, RoiAlign16AvghalfpixelRatio3) {
  // X = (arange(100).reshape(2,2,5,5) % 7) / 3
  // rois = [[0,0,3,3],[1.2,0.5,4.6,3.3],[-1,2,2.5,6]], batch_indices = [0,1,0]
  // expected: onnx.reference.ReferenceEvaluator on RoiAlign-16
  OpTester t("RoiAlign", 16);
  t.attr("mode", "avg").attr("output_height", int64_t{2}).attr("output_width", int64_t{3}).attr("sampling_ratio", int64_t{3}).attr("spatial_scale", 0.9f).attr("coordinate_transformation_mode", "half_pixel")
      .input("X", Tensor::fromVector<float>({2, 2, 5, 5}, {0, 0.333333343, 0.666666687, 1, 1.33333337, 1.66666663, 2, 0, 0.333333343, 0.666666687, 1, 1.33333337, 1.66666663, 2, 0, 0.333333343, 0.666666687, 1, 1.33333337, 1.66666663, 2, 0, 0.333333343, 0.666666687, 1, 1.33333337, 1.66666663, 2, 0, 0.333333343, 0.666666687, 1, 1.33333337, 1.66666663, 2, 0, 0.333333343, 0.666666687, 1, 1.33333337, 1.66666663, 2, 0, 0.333333343, 0.666666687, 1, 1.33333337, 1.66666663, 2, 0, 0.333333343, 0.666666687, 1, 1.33333337, 1.66666663, 2, 0, 0.333333343, 0.666666687, 1, 1.33333337, 1.66666663, 2, 0, 0.333333343, 0.666666687, 1, 1.33333337, 1.66666663, 2, 0, 0.333333343, 0.666666687, 1, 1.33333337, 1.66666663, 2, 0, 0.333333343, 0.666666687, 1, 1.33333337, 1.66666663, 2, 0, 0.333333343, 0.666666687, 1, 1.33333337, 1.66666663, 2, 0, 0.333333343, 0.666666687, 1, 1.33333337, 1.66666663, 2, 0, 0.333333343}))
      .input("rois", Tensor::fromVector<float>({3, 4}, {0, 0, 3, 3, 1.20000005, 0.5, 4.5999999, 3.29999995, -1, 2, 2.5, 6}))
      .input("batch_indices", Tensor::fromVector<int64_t>({3}, {0, 1, 0}))
      .expect("Y", Tensor::fromVector<float>({3, 2, 2, 3}, {0.47222212, 0.696666598, 0.571481466, 1.34444451, 1.54458344, 1.08722222, 1.1833334, 1.43888903, 1.71037054, 0.344444573, 0.600000083, 0.900000036, 0.422777832, 0.650000095, 0.990000069, 1.2757405, 1.27740717, 0.461111069, 1.47346663, 1.07846653, 1.07266665, 0.820185423, 1.14333344, 1.36822248, 0.577777803, 0.944444656, 1.19203711, 1.11111093, 1.30888867, 0.286111146, 0.429629445, 0.72222203, 0.845370173, 0.75555557, 1.21111119, 1.41722238}));
  t.run();
}

TEST(ImageRoi, NmsTwoClasses) {
  // boxes = the onnx suppress_by_IOU boxes, scores for 2 classes (2nd with a tie), max 3, iou 0.5, score 0
  // expected: onnx.reference.ReferenceEvaluator on NonMaxSuppression-11
  OpTester t("NonMaxSuppression", 11);
  t
      .input("boxes", Tensor::fromVector<float>({1, 6, 4}, {0, 0, 1, 1, 0, 0.100000001, 1, 1.10000002, 0, -0.100000001, 1, 0.899999976, 0, 10, 1, 11, 0, 10.1000004, 1, 11.1000004, 0, 100, 1, 101}))
      .input("scores", Tensor::fromVector<float>({1, 2, 6}, {0.899999976, 0.75, 0.600000024, 0.949999988, 0.5, 0.300000012, 0.100000001, 0.200000003, 0.899999976, 0.899999976, 0.300000012, 0.5}))
      .input("max", Tensor::fromVector<int64_t>({1}, {3}))
      .input("iou", Tensor::fromVector<float>({1}, {0.5}))
      .input("score", Tensor::fromVector<float>({1}, {0}))
      .expect("sel", Tensor::fromVector<int64_t>({6, 3}, {0, 0, 3, 0, 0, 0, 0, 0, 5, 0, 1, 2, 0, 1, 3, 0, 1, 5}));
  t.run();
}

TEST(ImageRoi, NmsCenterPointScoreThreshold) {
  // center-format boxes, class 0 scores above, max 10, iou 0.5, score threshold 0.4
  // expected: onnx.reference.ReferenceEvaluator on NonMaxSuppression-10
  OpTester t("NonMaxSuppression", 10);
  t.attr("center_point_box", int64_t{1})
      .input("boxes", Tensor::fromVector<float>({1, 6, 4}, {0.5, 0.5, 1, 1, 0.5, 0.600000024, 1, 1, 0.5, 0.400000006, 1, 1, 0.5, 10.5, 1, 1, 0.5, 10.6000004, 1, 1, 0.5, 100.5, 1, 1}))
      .input("scores", Tensor::fromVector<float>({1, 1, 6}, {0.899999976, 0.75, 0.600000024, 0.949999988, 0.5, 0.300000012}))
      .input("max", Tensor::fromVector<int64_t>({1}, {10}))
      .input("iou", Tensor::fromVector<float>({1}, {0.5}))
      .input("score", Tensor::fromVector<float>({1}, {0.400000006}))
      .expect("sel", Tensor::fromVector<int64_t>({2, 3}, {0, 0, 3, 0, 0, 0}));
  t.run();
}

TEST(ImageRoi, NmsNoMaxOutputSelectsNothing) {
  // no max_output_boxes_per_class: 0 boxes per class
  // expected: onnxruntime on NonMaxSuppression-11
  OpTester t("NonMaxSuppression", 11);
  t
      .input("boxes", Tensor::fromVector<float>({1, 6, 4}, {0, 0, 1, 1, 0, 0.100000001, 1, 1.10000002, 0, -0.100000001, 1, 0.899999976, 0, 10, 1, 11, 0, 10.1000004, 1, 11.1000004, 0, 100, 1, 101}))
      .input("scores", Tensor::fromVector<float>({1, 2, 6}, {0.899999976, 0.75, 0.600000024, 0.949999988, 0.5, 0.300000012, 0.100000001, 0.200000003, 0.899999976, 0.899999976, 0.300000012, 0.5}))
      .expect("sel", Tensor::fromVector<int64_t>({0, 3}, {}));
  t.run();
}

TEST(ImageRoi, NmsRejectsMismatchedScores) {
  OpTester t("NonMaxSuppression", 11);
  t.input("boxes", Tensor(DataType::kFloat, {1, 3, 4}))
      .input("scores", Tensor(DataType::kFloat, {1, 1, 2}))
      .output("sel");
  t.expectError("does not fit scores input 1 ('scores') shape [1,1,2]");
}

TEST(ImageRoi, RoiAlignRejectsUnknownMode) {
  OpTester t("RoiAlign", 16);
  t.attr("mode", "median")
      .input("X", Tensor(DataType::kFloat, {1, 1, 2, 2}))
      .input("rois", Tensor(DataType::kFloat, {1, 4}))
      .input("batch_indices", Tensor(DataType::kInt64, {1}))
      .output("Y");
  t.expectError("mode must be 'avg' or 'max'");
}

}  // namespace
}  // namespace oinfer::testing
