"""Observation pipeline shared by the desktop, browser and phone environments.

Set-of-Marks (:mod:`.marks`) from UI trees and OCR word boxes (:mod:`.ocr`), screenshot
encoding and image matching (:mod:`.image`). Nothing here knows which environment produced
the screen or the tree: inputs are images, boxes, roles and names. Pillow, OpenCV and numpy
are imported inside the functions that need them so ``import reefbench`` stays light.
"""
