"""Points drawn as the pixels they fall in, in memory bounded by the picture (sweep.py).

A bifurcation diagram has one dot per section value: 1e6 for the seeds' 10 001 values, 1e8 for a
large grid. Drawn as markers, every point is held (as floats and as a path) at once. Here the
points come in blocks and only a pixel mask of the axes is kept:

    column i = floor((x - x0) / (x1 - x0) * width),  row j = floor((y - y0) / (y1 - y0) * height)

for x0 <= x <= x1 and y0 <= y <= y1 (the upper edges go to the last column and row; points outside
the limits and NaN are dropped). `image(color)` is the mask as an RGBA picture with row 0 at the
bottom (imshow(..., origin="lower", extent=(x0, x1, y0, y1))): the colour where some point fell,
transparent elsewhere. With width and height the axes' size in pixels it is a marker ','
(one pixel) per point, as the earlier drawing had.
"""

import numpy as np
from matplotlib.colors import to_rgba


class PixelRaster:
    def __init__(self, xlim, ylim, width, height):
        if not (width >= 1 and height >= 1):
            raise ValueError(f"the raster needs at least one pixel, got {width} x {height}")
        if not (xlim[1] > xlim[0] and ylim[1] > ylim[0]):
            raise ValueError(f"the limits must increase, got x {xlim}, y {ylim}")
        self.xlim, self.ylim = tuple(map(float, xlim)), tuple(map(float, ylim))
        self.width, self.height = int(width), int(height)
        self.mask = np.zeros((self.height, self.width), dtype=bool)

    def add(self, x, y):
        """Marks the pixels of the points (x[k], y[k])."""
        x = np.asarray(x, dtype=float)
        y = np.asarray(y, dtype=float)
        (x0, x1), (y0, y1) = self.xlim, self.ylim
        inside = (x >= x0) & (x <= x1) & (y >= y0) & (y <= y1)  # False for NaN
        i = np.minimum(((x[inside] - x0) / (x1 - x0) * self.width).astype(np.int64),
                       self.width - 1)
        j = np.minimum(((y[inside] - y0) / (y1 - y0) * self.height).astype(np.int64),
                       self.height - 1)
        self.mask[j, i] = True

    def dilate(self, r=1):
        """Grows every marked pixel to a (2r + 1)² square: visible dots for a sparse sweep, whose
        single pixels would be lost in the picture."""
        m = self.mask.copy()
        h, w = m.shape
        for dj in range(-r, r + 1):
            for di in range(-r, r + 1):
                src = self.mask[max(0, -dj):h - max(0, dj), max(0, -di):w - max(0, di)]
                m[max(0, dj):h - max(0, -dj), max(0, di):w - max(0, -di)] |= src
        self.mask = m

    def image(self, color):
        rgba = np.zeros((self.height, self.width, 4), dtype=np.uint8)
        rgba[self.mask] = np.round(np.array(to_rgba(color)) * 255).astype(np.uint8)
        return rgba
