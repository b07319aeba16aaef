from django import template

from leaderboard.table_html import table_html

register = template.Library()


@register.simple_tag(takes_context=True)
def render_table(context, table):
    return table_html(table, query=context.get("query", ""), sort_query=context.get("sort_query", ""),
                      sort=context.get("sort", ""), direction=context.get("dir", ""))
