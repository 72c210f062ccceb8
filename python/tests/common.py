"""What the Python tests share: where prec's sources and examples are."""
import os

SOURCE = os.environ.get("PREC_SOURCE_DIR",
                        os.path.join(os.path.dirname(__file__), "..", ".."))
EXAMPLES = os.path.join(SOURCE, "examples")
MODELS = os.path.join(SOURCE, "test", "models")


def example(name):
    return os.path.join(EXAMPLES, name)


def model(name):
    return os.path.join(MODELS, name)
