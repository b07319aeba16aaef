import pytest


@pytest.fixture
def site(db):
    from tests.leaderboard.factories import populated_site

    return populated_site()
