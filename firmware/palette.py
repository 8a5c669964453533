"""The colours of the evening's lines, for the report's charts (firmware/report.py, Pillow)
and the web view's (firmware/web/charts.py, SVG): Okabe-Ito, told apart in the common
colour-vision deficiencies, and on paper. Apart from both so the web process needs no Pillow."""

LINE_COLOURS = [(0, 114, 178), (213, 94, 0), (0, 158, 115), (204, 121, 167), (86, 180, 233),
                (230, 159, 0), (0, 0, 0)]
