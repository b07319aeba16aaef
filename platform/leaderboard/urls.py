from django.urls import include, path

from evaluators.registry import FAMILIES
from leaderboard import static_views, views, views_items, views_jobs

app_name = "leaderboard"
urlpatterns = [
    path("", views.overview, name="home"),
    path("models/<slug:slug>/", views.model_detail, name="model"),
    path("benchmarks/", views.benchmark_list, name="benchmarks"),
    path("benchmarks/<int:pk>/", views.benchmark_detail, name="benchmark"),
    path("runs/<int:pk>/", views.run_detail, name="run"),
    path("items/<int:pk>/", views_items.item_detail, name="item"),
    path("items/<int:pk>/text/<int:index>/", views_items.item_text, name="item_text"),
    path("jobs/", views_jobs.queue, name="queue"),
    path("jobs/<int:pk>/", views_jobs.job_detail, name="job"),
    path("jobs/<int:pk>/progress.json", views_jobs.job_progress_json, name="job_progress"),
    path("jobs/<int:pk>/cancel/", views_jobs.job_cancel_view, name="job_cancel"),
    path("jobs/<int:pk>/resume/", views_jobs.job_resume_view, name="job_resume"),
    path("vendor/plotly.min.js", static_views.plotly_js, name="plotly_js"),
    path("favicon.ico", static_views.favicon, name="favicon"),
    # each family's pages and item viewers, from the family's own web package (FamilySpec.web;
    # no app_name there, so their url names stay in this namespace: leaderboard:hipho, ...)
    *(path("", include(spec.web)) for spec in FAMILIES.values() if spec.web),
]
