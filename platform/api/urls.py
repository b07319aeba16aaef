from django.urls import path, re_path

from api import docs, views

app_name = "api"
urlpatterns = [
    path("", docs.index, name="index"),
    path("docs", docs.docs, name="docs"),
    path("health", views.health, name="health"),
    path("openapi.json", views.openapi, name="openapi"),
    path("leaderboard", views.leaderboard, name="leaderboard"),
    path("leaderboards/<str:family>", views.family_leaderboard, name="family_leaderboard"),
    path("models", views.models, name="models"),
    path("models/<slug:slug>", views.model_detail, name="model"),
    path("benchmarks", views.benchmarks, name="benchmarks"),
    path("benchmarks/<int:pk>", views.benchmark_detail, name="benchmark"),
    path("jobs", views.jobs, name="jobs"),
    path("jobs/<int:pk>", views.job_detail, name="job"),
    path("jobs/<int:pk>/cancel", views.job_cancel_view, name="job_cancel"),
    path("jobs/<int:pk>/resume", views.job_resume_view, name="job_resume"),
    path("runs/<int:pk>", views.run_detail, name="run"),
    path("runs/<int:pk>/items", views.run_items, name="run_items"),
    path("items/<int:pk>", views.item_detail, name="item"),
    path("games/<int:pk>", views.game_detail, name="game"),
    re_path(r"^(?P<path>.*)$", views.not_found, name="not_found"),
]
