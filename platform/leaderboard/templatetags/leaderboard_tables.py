from django import template
from django.utils.html import format_html

from leaderboard.table_html import table_html

register = template.Library()


@register.simple_tag(takes_context=True)
def render_table(context, table):
    return table_html(
        table,
        query=context.get("query", ""),
        sort_query=context.get("sort_query", ""),
        sort=context.get("sort", ""),
        direction=context.get("dir", ""),
    )


@register.filter
def when(moment):
    """{{ dt|when }}: a <time> element, readable UTC text that site.js turns into local time; the
    ISO timestamp stays in the tooltip."""
    if not moment:
        return "—"
    iso = moment.isoformat(timespec="seconds")
    return format_html(
        '<time datetime="{}" title="{}">{}</time>', iso, iso, moment.strftime("%Y-%m-%d %H:%M UTC")
    )


@register.simple_tag
def chart_template():
    from leaderboard.pages import chart_template as template

    return template()
