"""pytest settings of the cloud's own tests (tests/cloud)."""


def pytest_configure(config):
    # tools/test runs these before the integration shards start, and leaves them
    # out of the cloud stage that runs beside the shards (see stage_cloud there).
    config.addinivalue_line(
        'markers', 'other_lanes: acts as the users of lanes 2 on, the lanes of the '
        'integration shards')
