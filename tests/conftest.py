import matplotlib

matplotlib.use("Agg")

import pytest  # noqa: E402


@pytest.fixture(scope="module")
def one_torch_thread():
    """Tiny tensors: on a busy machine torch's thread pool makes each op cost milliseconds.
    A module that asks for it (pytestmark) runs on one thread; the count is restored after."""
    import torch

    threads = torch.get_num_threads()
    torch.set_num_threads(1)
    yield
    torch.set_num_threads(threads)
