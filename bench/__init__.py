"""The measurements behind every figure and setting of wsd-classic: one study per module, run as
``python -m bench NAME [ARGS]`` from the repository (``python -m bench`` lists them). bench reads
the ``wsd_classic`` package and the data directory and writes ``bench/results/*.json``; the
package never imports bench (import-linter checks it, setup.cfg)."""
