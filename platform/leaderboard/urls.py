from django.urls import path

from leaderboard import static_views, views, views_families, views_items, views_jobs

app_name = "leaderboard"
urlpatterns = [
    path("", views.overview, name="home"),
    path("models/<slug:slug>/", views.model_detail, name="model"),
    path("benchmarks/", views.benchmark_list, name="benchmarks"),
    path("benchmarks/<int:pk>/", views.benchmark_detail, name="benchmark"),
    path("runs/<int:pk>/", views.run_detail, name="run"),
    path("hipho/", views_families.hipho, name="hipho"),
    path("hipho/exams/<str:exam_id>/", views_families.hipho_exam, name="hipho_exam"),
    path("hipho/exams/<str:exam_id>/figures/<int:p>/<int:f>", views_families.hipho_figure, name="hipho_figure"),
    path("hanabi/", views_families.hanabi, name="hanabi"),
    path("chess/", views_families.chess, name="chess"),
    path("items/<int:pk>/", views_items.item_detail, name="item"),
    path("items/<int:pk>/text/<int:index>/", views_items.item_text, name="item_text"),
    path("items/<int:pk>/replay/", views_items.replay, name="replay"),
    path("items/<int:pk>/position/", views_items.position, name="position"),
    path("jobs/", views_jobs.queue, name="queue"),
    path("jobs/<int:pk>/", views_jobs.job_detail, name="job"),
    path("jobs/<int:pk>/progress.json", views_jobs.job_progress_json, name="job_progress"),
    path("jobs/<int:pk>/cancel/", views_jobs.job_cancel_view, name="job_cancel"),
    path("jobs/<int:pk>/resume/", views_jobs.job_resume_view, name="job_resume"),
    path("vendor/plotly.min.js", static_views.plotly_js, name="plotly_js"),
    path("favicon.ico", static_views.favicon, name="favicon"),
]
