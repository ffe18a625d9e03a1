"""Building the card model: everything `make model` runs, and nothing a Pi needs to play.

    synth/              synthetic tables: card-art install, scene composer, labelled data sets
    crops.py            index-classifier crops cut from rendered scenes
    classifier_train.py the index classifier's network and training loop (PyTorch)
    train.py            `make model`: art → scenes → detector + classifier → export → eval
    mixed_precision.py  bfloat16 on CPUs that have it, ultralytics' AMP check on a GPU
    bench.py            the tables `scorekeeper bench vision` times (benchmarks/frames/make.py)

The runtime (`scorekeeper serve | read | bench`, scorekeeper/vision/ and the rest) never
imports the lab; tests/test_runtime_imports.py checks that. The way in is the other way:
training uses the runtime's reader and classes, and the lab's evaluation. PyTorch and
ultralytics (the lab's dependencies) load only inside the functions that train or export;
synth/ and bench.py need only numpy and OpenCV; `scorekeeper bench vision` needs none of it.
"""
