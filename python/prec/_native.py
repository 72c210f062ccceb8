"""The compiler's native half, loaded when first needed: engines load and
run without it (on a GPU machine with only the built engines)."""


def native():
    """The _prec extension module."""
    try:
        from . import _prec
    except ImportError as error:
        raise ImportError(
            "prec's compiler (the _prec extension) is not built for this "
            "Python: build prec (scripts/build.sh) and put build/python on "
            "PYTHONPATH") from error
    return _prec
