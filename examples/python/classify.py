# Classifies the digit-7 sample with the demo model through the Python
# package (pip install .), the way an onnxruntime program would; then asks
# for an intermediate value, runs several threads at once and stops a run.
#   python examples/python/classify.py
import pathlib
import threading

import numpy as np

import oinfer

root = pathlib.Path(__file__).resolve().parents[2]
sess = oinfer.InferenceSession(str(root / "models" / "digits.onnx"), threads=2)
print(sess.get_inputs()[0].name, sess.get_inputs()[0].shape, sess.get_inputs()[0].type)

x = np.load(root / "models" / "digits_samples" / "digit_7.npy")  # float32 [1, 64]
(probs,) = sess.run(None, {"pixels": x})
print("predicted digit:", int(probs.argmax()))

# Any value of the model by name, even one the graph passes fused away (the
# session keeps it from then on).
(hidden,) = sess.run(["hidden_pre"], {"pixels": x})
print("hidden_pre:", hidden.shape)

# run() releases the GIL and is thread-safe: one session, many threads.
batch = np.repeat(x, 8, axis=0)
results = [None] * 4
def work(k):
    results[k] = sess.run(None, {"pixels": batch})[0].argmax(axis=1)
threads = [threading.Thread(target=work, args=(k,)) for k in range(4)]
for t in threads:
    t.start()
for t in threads:
    t.join()
print("threads agree:", all((r == 7).all() for r in results))

# Errors are oinfer.Error with the library's message.
try:
    sess.run(None, {"pixel": x})
except oinfer.Error as e:
    print("error:", e)
