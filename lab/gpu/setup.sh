# Sourced by the GPU scripts: the carried wheels, a polars stand-in, the art and the fonts.
# SKIP_INSTALL=1 on a machine still warm from an earlier call (all of it is there already).
# Carried beside the repo in .gpu/: wheels/ (ultralytics, pydantic and their pure-Python
# needs for the machine's Python), cards/ (the art cache, packed by lab/gpu/art.py) and
# fonts.tar.xz (a subset of the fonts the art install adds, for font decks and printed
# distractors; paths relative to /usr/share/fonts).
export PYTHONUNBUFFERED=1 YOLO_OFFLINE=1 YOLO_AUTOINSTALL=0
if [ -z "${SKIP_INSTALL:-}" ]; then
  python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --target /tmp/site \
    .gpu/wheels/*.whl
fi
# ultralytics reads its results.csv back with polars inside a try: a stub is enough.
mkdir -p /tmp/stub/polars
echo 'def read_csv(*a, **k): raise RuntimeError("polars is not installed")' \
  >/tmp/stub/polars/__init__.py
export PYTHONPATH=/tmp/site:/tmp/stub:$PWD:$PWD/lab
nvidia-smi --query-gpu=name,memory.total --format=csv,noheader || true
python3 -c 'import torch, ultralytics, pydantic; print(torch.__version__, ultralytics.__version__, torch.cuda.is_available())'
if [ -z "${SKIP_INSTALL:-}" ]; then
  python3 lab/gpu/art.py unpack .gpu/cards data/cards
fi
if [ -z "${SKIP_INSTALL:-}" ] && [ -f .gpu/fonts.tar.xz ]; then
  mkdir -p /usr/share/fonts && tar -xJf .gpu/fonts.tar.xz -C /usr/share/fonts
fi
