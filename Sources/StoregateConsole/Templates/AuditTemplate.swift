/// The tenant's audit log (admins only): a filter form, the entries newest first, and older pages.
enum AuditTemplate {
    static let text = """
        <h1>Audit log</h1>
        <form method="get" action="/console/audit" class="card row" id="audit-filter">
          <label for="audit-actor">Who</label>
          <input id="audit-actor" name="actor" value="{{actor}}" maxlength="300" placeholder="console:sam@example.com">
          <label for="audit-action">Action</label>
          <input id="audit-action" name="action" value="{{action}}" maxlength="100" placeholder="entitlement.grant or webhook.">
          <label for="audit-customer">Customer</label>
          <input id="audit-customer" name="customer" value="{{customer}}" maxlength="128">
          <label for="audit-from">From</label>
          <input id="audit-from" name="from" type="date" value="{{from}}">
          <label for="audit-to">To</label>
          <input id="audit-to" name="to" type="date" value="{{to}}">
          <button type="submit" id="filter-audit">Filter</button>
        </form>
        <p class="hint">Newest first, times in UTC. Who is an API key (apikey:), a person (console:), the CLI (cli:) or Apple (apple:);
        an action ending with a dot stands for every action under it.</p>
        <div class="scroll"><table id="audit">
          <thead><tr><th scope="col">When</th><th scope="col">Who</th><th scope="col">What</th><th scope="col">Customer</th><th scope="col">Detail</th></tr></thead>
          <tbody>
          {{#entries}}<tr class="audit-entry" id="audit-{{id}}"><td class="when"><time>{{at}}</time></td><td class="actor" data-label="Who">{{actor}}</td>
          <td class="action" data-label="What"><code>{{action}}</code></td><td class="customer" data-label="Customer">{{#customerId}}<a href="{{customerURL}}">{{customerId}}</a>{{/customerId}}</td>
          <td class="detail">{{#detail}}<span class="pair">{{name}} <code>{{value}}</code></span> {{/detail}}</td></tr>{{/entries}}
          {{^entries}}<tr><td colspan="5">No entries.</td></tr>{{/entries}}
          </tbody>
        </table></div>
        <nav class="pager" aria-label="Audit pages">
        {{#newest}}<a href="{{newest}}" id="newest-entries">Newest</a>{{/newest}}
        {{#older}}<a href="{{older}}" id="older-entries" rel="next">Older</a>{{/older}}
        </nav>
        """
}
