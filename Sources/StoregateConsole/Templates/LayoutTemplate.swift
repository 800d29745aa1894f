/// The frame of every console page: the tenant and the person signed in, search, and sign-out.
enum LayoutTemplate {
    static let text = """
        <!doctype html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <title>{{title}} · Storegate</title>
        <link rel="stylesheet" href="/console/style.css">
        </head>
        <body>
        <header class="top">
          <a class="brand" href="/console">Storegate{{#tenantName}} · {{tenantName}}{{/tenantName}}</a>
          {{#signedIn}}
          <form class="search" method="get" action="/console/search" role="search">
            <label for="q" class="visually-hidden">Find a customer</label>
            <input id="q" name="q" type="search" placeholder="Customer, token, transaction or order ID" value="{{query}}" required maxlength="128">
            <button type="submit">Find</button>
          </form>
          <nav aria-label="Account">
            <span class="who">{{email}} ({{role}})</span>
            {{#mayManagePeople}}<a href="/console/people">People</a>{{/mayManagePeople}}
            {{#mayReadAudit}}<a href="/console/audit" id="audit-link">Audit</a>{{/mayReadAudit}}
            <form method="post" action="/console/sign-out" class="inline">
              <input type="hidden" name="csrf" value="{{csrf}}">
              <button type="submit" id="sign-out">Sign out</button>
            </form>
          </nav>
          {{/signedIn}}
        </header>
        <main id="main">
        {{#flash}}<p class="flash" role="status">{{flash}}</p>{{/flash}}
        {{#error}}<div class="error" role="alert" id="error"><p>{{error}}</p>
        {{#errorDetail}}<details><summary>Technical detail</summary><p><code>{{errorDetail}}</code></p></details>{{/errorDetail}}</div>{{/error}}
        {{{body}}}
        </main>
        </body>
        </html>
        """
}
