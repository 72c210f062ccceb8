"""Writes calibration data for the MLP and CNN examples into a folder.

mlp.npz      x: 1024 samples of N(0, 0.5) with one value in 10,000 at +-8
             (outliers), deflated, batch axis first
parts/       the same samples as four .npy files of 256
held_out.npz 16 further samples of N(0, 0.5), without outliers, for prec-run
narrow.npz   x: 64 samples uniform in [-0.05, 0.05]: a bad calibration set
images.npz   image: 256 NHWC images of N(0, 0.5), outliers as above
images_held_out.npz, images_narrow.npz: as for the MLP
"""
import os
import sys

import numpy as np

out = sys.argv[1]
rng = np.random.default_rng(2026)


def gaussian(shape):
    return rng.normal(0.0, 0.5, size=shape).astype(np.float32)


def gaussian_with_outliers(shape):
    values = gaussian(shape)
    flat = values.reshape(-1)
    picked = rng.choice(flat.size, size=max(flat.size // 10000, 1),
                        replace=False)
    flat[picked] = np.where(np.arange(picked.size) % 2, -8.0, 8.0)
    return values


samples = gaussian_with_outliers((1024, 32))
np.savez_compressed(os.path.join(out, "mlp.npz"), x=samples)
os.makedirs(os.path.join(out, "parts"), exist_ok=True)
for part in range(4):
    np.save(os.path.join(out, "parts", f"part{part}.npy"),
            samples[256 * part:256 * (part + 1)])
np.savez(os.path.join(out, "held_out.npz"), x=gaussian((16, 32)))
np.savez(os.path.join(out, "narrow.npz"),
         x=rng.uniform(-0.05, 0.05, size=(64, 32)).astype(np.float32))

np.savez_compressed(os.path.join(out, "images.npz"),
                    image=gaussian_with_outliers((256, 16, 16, 3)))
np.savez(os.path.join(out, "images_held_out.npz"),
         image=gaussian((4, 16, 16, 3)))
np.savez(os.path.join(out, "images_narrow.npz"),
         image=rng.uniform(-0.05, 0.05, size=(64, 16, 16, 3)).astype(np.float32))
